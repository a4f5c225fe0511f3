import { amountOf } from '../../contract/rules';

/** What a recon row (or an unsettled payment's row) carries that the checks read and the tie-out adds up. */
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
  settled?: unknown;
}

const shown = (v: unknown) => (v === undefined ? 'missing' : JSON.stringify(v));

/** A figure of the row as minor units: a non-negative whole number, or the problem with it. */
function figure(row: ReconRow, key: 'amount' | 'fee' | 'tax' | 'credit' | 'debit'): number | string {
  const n = amountOf(row[key]);
  if (n === undefined || !Number.isSafeInteger(n) || n < 0)
    return `${key} is ${shown(row[key])}, not a non-negative whole number of paise`;
  return n;
}

/** How a finding names the row: its type and entity. */
export const rowName = (row: ReconRow) =>
  `${typeof row.type === 'string' ? row.type : 'row'} ${typeof row.entity_id === 'string' ? row.entity_id : shown(row.entity_id)}`;

/**
 * The rules every row of a settlement report keeps, as payctl checks them before adding it up: every figure
 * a non-negative whole number of paise, its tax (the GST part) within its fee; a payment's credit is its
 * amount less its fee, and it names its settlement unless it is listed as not settled (`settled: false`);
 * a refund's debit is its amount and its fee. Returns the first rule the row breaks, or undefined.
 */
export function rowProblem(row: ReconRow): string | undefined {
  const figures: Record<string, number> = {};
  for (const key of ['amount', 'fee', 'tax', 'credit', 'debit'] as const) {
    const n = figure(row, key);
    if (typeof n === 'string') return `${rowName(row)}: ${n}`;
    figures[key] = n;
  }
  const { amount, fee, tax, credit, debit } = figures as Record<'amount' | 'fee' | 'tax' | 'credit' | 'debit', number>;
  if (tax > fee) return `${rowName(row)}: tax ${tax} is more than its fee ${fee} (the fee includes the tax)`;
  if (row.type === 'payment') {
    if (credit !== amount - fee)
      return `${rowName(row)}: credit ${credit} is not amount ${amount} - fee ${fee} = ${amount - fee}`;
    if (debit !== 0) return `${rowName(row)}: a payment with a debit of ${debit}`;
    const settled = typeof row.settlement_id === 'string' && row.settlement_id !== '';
    if (!settled && row.settled !== false)
      return `${rowName(row)}: no settlement_id, and not listed as unsettled (settled: ${shown(row.settled)})`;
  }
  if (row.type === 'refund') {
    if (debit !== amount + fee)
      return `${rowName(row)}: debit ${debit} is not amount ${amount} + fee ${fee} = ${amount + fee}`;
    if (credit !== 0) return `${rowName(row)}: a refund with a credit of ${credit}`;
  }
  return undefined;
}

/** What a run found wrong: every finding counted, the first few kept in the order found. */
export class Findings {
  readonly named: string[] = [];
  count = 0;
  constructor(private readonly keep = 20) {}
  add(finding: string): void {
    this.count++;
    if (this.named.length < this.keep) this.named.push(finding);
  }
  /** The lines under the error, which names the first: every other finding kept, and how many more there were. */
  lines(): string[] {
    const more = this.count - this.named.length;
    return [...this.named.slice(1), ...(more > 0 ? [`… and ${more} more`] : [])];
  }
}
