import { formatMoney, formatMoneyShort } from '../../output/money';
import { plural } from '../../output/plural';
import type { SummarySection } from '../../output/summary';

/** What a recon row (or an unsettled payment's row) carries that the tie-out adds up. */
export interface ReconRow {
  type?: unknown;
  entity_id?: unknown;
  amount?: unknown;
  fee?: unknown;
  tax?: unknown;
  credit?: unknown;
  debit?: unknown;
  settlement_id?: unknown;
  settlement_utr?: unknown;
  settled_at?: unknown;
}

/** A settlement as the service states it. */
export interface Stated {
  id: string;
  amount: unknown;
  fees?: unknown;
  tax?: unknown;
  utr?: unknown;
  created_at?: unknown;
}

/** One settlement's rows, added up. */
interface Tally {
  id: string;
  utr: string;
  settledAt?: number;
  payments: number;
  gross: number;
  fees: number;
  tax: number;
  refunds: number;
  credits: number;
  debits: number;
}

export interface Verdict extends Tally {
  net: number;
  stated: Stated;
  /** What does not agree with the settlement's own figures: empty when it ties out. */
  differences: string[];
}

const num = (v: unknown) => (typeof v === 'number' ? v : Number(v ?? 0)) || 0;
const inr = (paise: number) => formatMoneyShort(paise, 'INR');

/**
 * Adds up a settlement report as its rows stream past: per settlement, its payments (gross, fees with
 * GST, the GST part), refunds, credits and debits. A settlement ties out when its credits less its debits
 * are its amount, and its payments' fees and GST are its `fees` and `tax`.
 */
export class TieOut {
  readonly settlements = new Map<string, Tally>();
  readonly settledPayments = new Set<string>();
  readonly unsettled = { payments: 0, gross: 0, fees: 0 };

  note(row: ReconRow): void {
    const id = String(row.settlement_id ?? '');
    if (!id) return;
    let t = this.settlements.get(id);
    if (!t) {
      const at = num(row.settled_at);
      const zero = { payments: 0, gross: 0, fees: 0, tax: 0, refunds: 0, credits: 0, debits: 0 };
      t = { id, utr: String(row.settlement_utr ?? ''), settledAt: at || undefined, ...zero };
      this.settlements.set(id, t);
    }
    if (row.type === 'payment') {
      t.payments++;
      t.gross += num(row.amount);
      t.fees += num(row.fee);
      t.tax += num(row.tax);
      this.settledPayments.add(String(row.entity_id));
    }
    if (row.type === 'refund') t.refunds += num(row.amount);
    t.credits += num(row.credit);
    t.debits += num(row.debit);
  }

  noteUnsettled(row: ReconRow): void {
    this.unsettled.payments++;
    this.unsettled.gross += num(row.amount);
    this.unsettled.fees += num(row.fee);
  }

  /** Each settlement's tally beside what the service states of it. */
  verdicts(stated: Map<string, Stated>): Verdict[] {
    return [...this.settlements.values()].map((t) => {
      const s = stated.get(t.id)!;
      const net = t.credits - t.debits;
      const differences: string[] = [];
      const differ = (what: string, rows: number, said: unknown) => {
        if (num(said) !== rows)
          differences.push(`${what}: rows ${formatMoney(rows, 'INR')}, settlement ${formatMoney(num(said), 'INR')}`);
      };
      differ('credits - debits', net, s.amount);
      if (s.fees !== undefined && s.fees !== null) differ('fees', t.fees, s.fees);
      if (s.tax !== undefined && s.tax !== null) differ('tax', t.tax, s.tax);
      return { ...t, net, stated: s, differences };
    });
  }
}

/** One line of stderr per settlement, and one for what was captured but not yet settled. */
export function tieOutLines(verdicts: Verdict[], tie: TieOut): string[] {
  const lines = verdicts.map((v) => {
    const head = `${v.id} (UTR ${v.utr}): ${plural(v.payments, 'payment')} ${inr(v.gross)}, fees ${inr(v.fees)} (tax ${inr(v.tax)}), refunds ${inr(v.refunds)}`;
    const sums = `credits ${inr(v.credits)} - debits ${inr(v.debits)} = ${formatMoney(v.net, 'INR')}`;
    const verdict = v.differences.length ? `DOES NOT TIE OUT (${v.differences.join('; ')})` : 'ties out';
    return `${head}; ${sums}; settled ${formatMoney(num(v.stated.amount), 'INR')}: ${verdict}`;
  });
  const u = tie.unsettled;
  if (u.payments)
    lines.push(
      `unsettled at the period's end: ${plural(u.payments, 'captured payment')}, ${formatMoney(u.gross, 'INR')} gross`,
    );
  return lines;
}

/** The Summary sheet's table: a settlement a row, money in rupees, the verdict in words. */
export function tieOutSection(verdicts: Verdict[], tie: TieOut): SummarySection {
  const rows: SummarySection['rows'] = verdicts.map((v) => [
    v.id,
    v.utr,
    v.settledAt ?? null,
    v.payments,
    v.gross,
    v.fees,
    v.tax,
    v.refunds,
    v.credits,
    v.debits,
    v.net,
    num(v.stated.amount),
    v.differences.length ? 'no' : 'yes',
  ]);
  const u = tie.unsettled;
  if (u.payments)
    rows.push(['unsettled', null, null, u.payments, u.gross, u.fees, null, null, null, null, null, null, null]);
  return {
    header: [
      'settlement_id',
      'utr',
      'settled_at',
      'payments',
      'gross_payments',
      'fees',
      'tax',
      'refunds',
      'credits',
      'debits',
      'computed_net',
      'settlement_amount',
      'agrees',
    ],
    formats: [undefined, undefined, 'date', 'integer', ...Array<'rupees'>(8).fill('rupees'), undefined],
    rows,
    lines: tieOutLines(verdicts, tie),
  };
}
