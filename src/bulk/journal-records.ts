import { isJsonObject, parseJson } from '../contract/values/json';
import type { BulkItem, BulkOp } from './input';
import type { Disk } from './disk';

export type OutcomeResult = 'done' | 'failed' | 'unknown';

/** A refund's `sent` record keeps the payment's amount_refunded read just before sending, and its key. */
export interface SentRecord {
  id: string;
  type: 'sent';
  line: number;
  amount?: number;
  currency?: string;
  amount_refunded?: number;
  key?: string;
  /** The attempt's deadline (--timeout): with `at`, when the request can no longer arrive. */
  deadline_ms?: number;
  at: string;
}

/** One row of the frozen plan (written between a `plan` and its `planned` record). */
export interface RowRecord {
  type: 'row';
  line: number;
  id: string;
  amount?: number;
  currency?: string;
  receipt?: string;
  notes?: Record<string, string>;
}

export type JournalRecord =
  | { type: 'plan'; op: BulkOp; digest: string; run_id: string; total: number; at: string }
  | RowRecord
  | { type: 'planned'; digest: string; total: number; at: string }
  | { type: 'run'; op: BulkOp; at: string; pid: number; items: number }
  | SentRecord
  | {
      id: string;
      type: 'outcome';
      result: OutcomeResult;
      status?: string;
      refund_id?: string;
      reason?: string;
      verdict?: string;
      at: string;
    }
  | { type: 'end'; at: string; done: number; skipped: number; failed: number; unknown: number; not_started: number };

const TYPES = new Set(['plan', 'row', 'planned', 'run', 'sent', 'outcome', 'end']);
const WITH_ID = new Set(['row', 'sent', 'outcome']);

/** A journal line as a record, or undefined when it is not one (damaged, or torn by a kill). */
export function parseRecord(line: string): JournalRecord | undefined {
  const parsed = parseJson(line);
  if (!parsed.ok || !isJsonObject(parsed.value)) return undefined;
  const r = parsed.value as Record<string, unknown>;
  if (typeof r.type !== 'string' || !TYPES.has(r.type)) return undefined;
  if (WITH_ID.has(r.type) && typeof r.id !== 'string') return undefined;
  return r as unknown as JournalRecord;
}

/** The payment a torn record was about, when its id survived (payctl writes it first in the records that name one). */
export const tornId = (fragment: string): string | undefined => /"id":"([A-Za-z0-9_]+)"/.exec(fragment)?.[1];

export const rowRecord = (item: BulkItem): RowRecord => ({
  type: 'row',
  line: item.line,
  id: item.id,
  amount: item.amount,
  currency: item.currency,
  receipt: item.receipt,
  notes: item.notes,
});

export const itemOf = (r: RowRecord): BulkItem => {
  const item: BulkItem = { line: r.line, id: r.id };
  if (r.amount !== undefined) item.amount = r.amount;
  if (r.currency !== undefined) item.currency = r.currency;
  if (r.receipt !== undefined) item.receipt = r.receipt;
  if (r.notes !== undefined) item.notes = r.notes;
  return item;
};

/**
 * Reads a file's lines from `from`, a chunk at a time: a journal of a million rows is never held
 * whole. Yields each line with the offset just past it; a last line with no newline is yielded with
 * `whole: false`.
 */
export function* lines(
  read: (position: number, length: number) => Uint8Array,
  from: number,
  end: number,
  chunk = 1 << 20,
): Generator<{ text: string; start: number; next: number; whole: boolean }> {
  let pos = from;
  let pending = Buffer.alloc(0);
  let pendingStart = from;
  while (pos < end) {
    const got = read(pos, Math.min(chunk, end - pos));
    if (!got.length) break;
    pos += got.length;
    let buf = pending.length ? Buffer.concat([pending, got]) : Buffer.from(got);
    let start = 0;
    for (let nl = buf.indexOf(10); nl >= 0; nl = buf.indexOf(10, start)) {
      const next = pendingStart + nl + 1;
      yield { text: buf.toString('utf8', start, nl), start: pendingStart + start, next, whole: true };
      start = nl + 1;
    }
    pendingStart += start;
    buf = buf.subarray(start);
    pending = Buffer.from(buf);
  }
  if (pending.length) yield { text: pending.toString('utf8'), start: pendingStart, next: pos, whole: false };
}

/** What the journal says about one payment when a run starts. */
export type ItemState = 'new' | 'done' | 'failed' | 'unknown' | 'in_flight';

/**
 * Seams of the journal: the Disk its file goes through, the clock its records are stamped with, how
 * a group of records waits for its one fsync (`defer`: a short timer by default, so the records the
 * workers append meanwhile share it), and the lock beside it.
 */
export interface JournalDeps {
  disk?: Disk;
  now?: () => number;
  defer?: (fn: () => void) => void;
  /** Throws UsageError when another run holds it. */
  lock?: (path: string) => { release(): void };
}

export interface Plan {
  digest: string;
  runId: string;
  total: number;
  /** Offset of the first row record. */
  start: number;
}
