import { UsageError } from '../contract/errors';

/** The statement formats payctl reads. */
export const BANK_FORMATS = ['mt940', 'camt053', 'csv'] as const;
export type BankFormat = (typeof BANK_FORMATS)[number];

/** One entry of a bank statement, as payctl matches it: money in paise, days as `YYYY-MM-DD`. */
export interface BankEntry {
  file: string;
  /** The line the entry starts on (1-based). */
  line: number;
  statement: string;
  valueDate: string;
  bookingDate?: string;
  /** Paise, never negative: `credit` says which way it went. */
  amount: number;
  credit: boolean;
  /** The bank's reference field(s) for the entry (UTR, cheque or reference number). */
  reference: string;
  narration: string;
}

/** A statement's balances and what its entries add up to, as read (paise; balances signed). */
export interface StatementTotals {
  file: string;
  line: number;
  statement: string;
  opening?: number;
  closing?: number;
  credits: number;
  debits: number;
  entries: number;
  first?: string;
  last?: string;
  /** Where a running balance first stops adding up (CSV): the line, and the balance there against the entries'. */
  breaksAt?: { line: number; stated: number; made: number };
}

export type BankEvent = { type: 'entry'; entry: BankEntry } | { type: 'statement'; totals: StatementTotals };

/** A statement payctl cannot read: the file, where in it, and what was expected there (exit 2). */
export class StatementError extends UsageError {
  constructor(file: string, where: string, what: string) {
    super(`${file}${where ? `: ${where}` : ''}: ${what}`.replace(/[\r\n]+/g, ' '));
  }
}

/** The statement's opening + credits - debits against its closing balance: undefined when it adds up. */
export function imbalance(t: StatementTotals): number | undefined {
  if (t.breaksAt) return t.breaksAt.stated - t.breaksAt.made;
  if (t.opening === undefined || t.closing === undefined) return undefined;
  const diff = t.closing - (t.opening + t.credits - t.debits);
  return diff === 0 ? undefined : diff;
}

/** Keeps a statement's totals as its entries pass. */
export function tally(t: StatementTotals, e: BankEntry): void {
  t.entries++;
  if (e.credit) t.credits += e.amount;
  else t.debits += e.amount;
  if (t.first === undefined || e.valueDate < t.first) t.first = e.valueDate;
  if (t.last === undefined || e.valueDate > t.last) t.last = e.valueDate;
}

/** Longest text payctl keeps of one field of an entry (a narration is a few hundred characters at most). */
export const FIELD_MAX = 4096;
