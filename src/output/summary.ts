import { cellValue, currencyOf, defaultColumns } from './columns';
import type { ResourceKind } from './columns';
import { formatMoneyShort, minorUnits } from './money';

export interface CustomerLedger {
  id: string;
  rows: number;
  credits: number;
  debits: number;
  /** Balance before the oldest entry in the range, and after the newest; undefined with no entries. */
  opening?: number;
  closing?: number;
  /** Named on stderr: the customer is unknown, or has no wallet. */
  missing?: string;
}

interface Entry {
  created_at?: unknown;
  credit?: unknown;
  debit?: unknown;
  balance?: unknown;
}

/**
 * A table of its own for the Summary sheet (money given in minor units, shown there in rupees), and the
 * lines that say the same on stderr: a reconciliation's settlement by settlement tie-out.
 */
export interface SummarySection {
  header: string[];
  rows: Array<Array<string | number | boolean | null>>;
  formats: Array<'rupees' | 'integer' | 'date' | undefined>;
  lines: string[];
}

const num = (v: unknown) => (typeof v === 'number' ? v : Number(v ?? 0)) || 0;

/**
 * What an export covered, noted row by row as rows stream past (nothing kept but sums): the row
 * count, the first and last `created_at`, totals of the kind's money columns per currency, and for
 * statements each customer's opening and closing balance, credits and debits.
 */
export class ExportSummary {
  rows = 0;
  first = Infinity;
  last = -Infinity;
  readonly totals = new Map<string, { column: string; currency: string; sum: number }>();
  readonly customers = new Map<string, CustomerLedger>();
  /** Filled in once the last row has passed, before the Summary sheet is written. */
  readonly sections: SummarySection[] = [];
  private readonly money: ReturnType<typeof defaultColumns>;

  constructor(
    readonly kind: ResourceKind,
    readonly range: { from?: number; to?: number },
    readonly zone: { tz: string; chosen: boolean },
  ) {
    this.money = kind === 'customer_transaction' ? [] : defaultColumns(kind).filter((c) => c.type === 'money');
  }

  note(row: unknown, customer?: string): void {
    this.rows++;
    const at = Number((row as Entry | null)?.created_at);
    if (Number.isFinite(at)) {
      this.first = Math.min(this.first, at);
      this.last = Math.max(this.last, at);
    }
    for (const col of this.money) {
      const v = cellValue(row, col);
      if (v === null || v === undefined || v === '' || !Number.isFinite(Number(v))) continue;
      const currency = currencyOf(row, col, this.kind) ?? '';
      const key = `${col.key}|${currency}`;
      const t = this.totals.get(key) ?? { column: col.key, currency, sum: 0 };
      t.sum += Number(v);
      this.totals.set(key, t);
    }
    if (customer !== undefined) this.entry(customer, row as Entry);
  }

  /** Rows of a statement come newest first (the service's order) unless asked oldest first. */
  oldestFirst = false;

  /**
   * A statement entry. One customer's rows come together in ledger order or its reverse, so the
   * first and last seen are the newest and oldest, also among entries made in the same second.
   */
  private entry(id: string, e: Entry) {
    const c = this.customer(id);
    const credit = num(e.credit);
    const debit = num(e.debit);
    c.rows++;
    c.credits += credit;
    c.debits += debit;
    const before = num(e.balance) - credit + debit;
    if (this.oldestFirst) {
      if (c.rows === 1) c.opening = before;
      c.closing = num(e.balance);
    } else {
      if (c.rows === 1) c.closing = num(e.balance);
      c.opening = before;
    }
  }

  customer(id: string): CustomerLedger {
    let c = this.customers.get(id);
    if (!c) this.customers.set(id, (c = { id, rows: 0, credits: 0, debits: 0 }));
    return c;
  }
}

/** Said beside a ledger with no entries in the period: its opening and closing balance are the same. */
export const unchanged = (c: CustomerLedger) =>
  c.rows === 0 && c.opening !== undefined ? ' (no entries in the period: the balance did not change)' : undefined;

export const rupees = (paise: number | undefined) => (paise === undefined ? '-' : formatMoneyShort(paise, 'INR'));

/** `zone Asia/Kolkata` or `zone UTC (this machine's default: pass --tz to choose)`. */
export const zoneText = (z: { tz: string; chosen: boolean }) =>
  `zone ${z.tz}${z.chosen ? '' : " (this machine's default: pass --tz to choose)"}`;

/** The lines for stderr after an export: per-currency totals, then each customer's ledger. */
export function summaryLines(s: ExportSummary): string[] {
  const lines: string[] = [];
  if (s.totals.size) {
    const total = (t: { column: string; sum: number; currency?: string }) =>
      t.currency
        ? `${t.column} ${t.currency} ${formatMoneyShort(t.sum, t.currency)} (${minorUnits(t.sum, t.currency)})`
        : `${t.column} ${minorUnits(t.sum)} (currency not given)`;
    lines.push(`totals: ${[...s.totals.values()].map(total).join(', ')}`);
  }
  for (const c of s.customers.values()) {
    if (c.missing) continue;
    const money = `opening ${rupees(c.opening)}, credits ${rupees(c.credits)}, debits ${rupees(c.debits)}`;
    lines.push(`${c.id}: ${c.rows} rows, ${money}, closing ${rupees(c.closing)}${unchanged(c) ?? ''}`);
  }
  for (const section of s.sections) lines.push(...section.lines);
  return lines;
}
