import { formatMoney, formatMoneyShort } from '../../output/money';
import { plural } from '../../output/plural';
import type { SummarySection } from '../../output/summary';

import type { ReconRow } from './checks';

export type { ReconRow };

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
 * are its amount, and its rows' fees and GST are its `fees` and `tax`.
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
      this.settledPayments.add(String(row.entity_id));
    }
    if (row.type === 'refund') t.refunds += num(row.amount);
    t.fees += num(row.fee);
    t.tax += num(row.tax);
    t.credits += num(row.credit);
    t.debits += num(row.debit);
  }

  noteUnsettled(row: ReconRow): void {
    this.unsettled.payments++;
    this.unsettled.gross += num(row.amount);
    this.unsettled.fees += num(row.fee);
  }

  /**
   * Each settlement the service lists for the period beside its rows' tally, and each settlement the rows
   * name that the list does not: a listed settlement with no rows, or rows of one not listed, is a
   * difference, as is any figure (amount, fees, tax) its rows do not add up to.
   */
  verdicts(stated: Map<string, Stated>): Verdict[] {
    const zero = { payments: 0, gross: 0, fees: 0, tax: 0, refunds: 0, credits: 0, debits: 0 };
    const ids = [...new Set([...stated.keys(), ...this.settlements.keys()])];
    return ids.map((id) => {
      const s = stated.get(id);
      const t = this.settlements.get(id) ?? {
        id,
        utr: String(s?.utr ?? ''),
        settledAt: num(s?.created_at) || undefined,
        ...zero,
      };
      const net = t.credits - t.debits;
      if (!s)
        return { ...t, net, stated: { id, amount: null }, differences: ['not listed by the service for the period'] };
      const differences: string[] = [];
      if (!this.settlements.has(id))
        differences.push(`no rows in the report for its ${formatMoney(num(s.amount), 'INR')}`);
      const differ = (what: string, rows: number, said: unknown) => {
        if (said === undefined || said === null) differences.push(`the settlement states no ${what}`);
        else if (num(said) !== rows)
          differences.push(`${what}: rows ${formatMoney(rows, 'INR')}, settlement ${formatMoney(num(said), 'INR')}`);
      };
      if (this.settlements.has(id)) {
        differ('credits - debits', net, s.amount);
        differ('fees', t.fees, s.fees);
        differ('tax', t.tax, s.tax);
      }
      return { ...t, utr: t.utr || String(s.utr ?? ''), net, stated: s, differences };
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
