import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../contract/errors';
import { isJsonObject, parseJson } from '../contract/values/json';
import type { BulkOp } from './input';
import { describeHolder, Lock } from './lock';

type OutcomeResult = 'done' | 'failed' | 'unknown';

/** What the journal says about one payment when a run starts. */
export type ItemState = 'new' | 'done' | 'failed' | 'unknown' | 'in_flight';

/** A refund's `sent` record keeps the payment's amount_refunded read just before sending. */
export interface SentRecord {
  type: 'sent';
  id: string;
  line: number;
  amount?: number;
  currency?: string;
  amount_refunded?: number;
  at: string;
}

type JournalRecord =
  | { type: 'run'; op: BulkOp; at: string; pid: number; items: number }
  | SentRecord
  | {
      type: 'outcome';
      id: string;
      result: OutcomeResult;
      status?: string;
      refund_id?: string;
      reason?: string;
      verdict?: string;
      at: string;
    }
  | { type: 'end'; at: string; done: number; skipped: number; failed: number; unknown: number; not_started: number };

const TYPES = new Set(['run', 'sent', 'outcome', 'end']);

/**
 * The record of a bulk run, one JSON object per line, appended with a synchronous write before each
 * request is sent and after each outcome is known, so a process killed at any instant leaves a
 * journal that says exactly which payments might have been touched. A lock beside it (see lock.ts)
 * keeps two runs from ever working from the same journal at once.
 */
export class Journal {
  private fd = -1;
  private readonly states = new Map<string, ItemState>();
  private readonly reasons = new Map<string, string>();
  private readonly verdicts = new Map<string, string>();
  private readonly sentRecords = new Map<string, SentRecord>();
  private recordedOp: BulkOp | undefined;
  private lock: Lock | undefined;
  /** Bytes cut off the end: the record a kill interrupted. */
  repaired = 0;

  private constructor(readonly path: string) {}

  /** `op` undefined: whatever operation the journal holds (a recheck). */
  static open(path: string, op: BulkOp | undefined, opts: { mustExist?: boolean } = {}): Journal {
    const journal = new Journal(path);
    mkdirSync(dirname(path), { recursive: true });
    const lock = Lock.take(`${path}.lock`);
    if (!(lock instanceof Lock))
      throw new UsageError(
        `journal ${path} is in use by another payctl run (${describeHolder(lock)}); wait for it to finish, or stop it`,
      );
    journal.lock = lock;
    try {
      if (opts.mustExist && !existsSync(path)) throw new UsageError(`journal ${path} does not exist`);
      journal.load(op);
      journal.fd = openSync(path, 'a', 0o600);
      chmodSync(path, 0o600);
    } catch (err) {
      journal.close();
      throw err;
    }
    return journal;
  }

  private load(op: BulkOp | undefined) {
    if (!existsSync(this.path)) return;
    const text = readFileSync(this.path, 'utf8');
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      const last = i === lines.length - 1; // no newline after it: a write a kill cut short
      const parsed = parseJson(line);
      const record = parsed.ok && isJsonObject(parsed.value) ? (parsed.value as unknown as JournalRecord) : undefined;
      if (
        !record ||
        !TYPES.has(record.type) ||
        (record.type !== 'run' && record.type !== 'end' && typeof record.id !== 'string')
      ) {
        if (last) return this.truncate(Buffer.byteLength(text) - Buffer.byteLength(line), Buffer.byteLength(line));
        throw new UsageError(
          `journal ${this.path} line ${i + 1} is damaged (${JSON.stringify(line.slice(0, 40))}); ` +
            'it cannot be used to resume safely: keep it for the record and check its payments by hand',
        );
      }
      this.apply(record, op);
    });
  }

  /** Cuts the torn last record off, durably, so the next resume finds a clean file too. */
  private truncate(keep: number, cut: number) {
    const fd = openSync(this.path, 'r+');
    try {
      ftruncateSync(fd, keep);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.repaired = cut;
  }

  private apply(record: JournalRecord, op: BulkOp | undefined) {
    if (record.type === 'run') {
      if (op && record.op !== op)
        throw new UsageError(`journal ${this.path} belongs to a bulk ${record.op}, not a ${op}: use another --journal`);
      this.recordedOp ??= record.op;
    }
    if (record.type === 'sent') {
      this.states.set(record.id, 'in_flight');
      this.sentRecords.set(record.id, record);
      this.verdicts.delete(record.id);
    }
    if (record.type === 'outcome') {
      this.states.set(record.id, record.result);
      if (record.reason) this.reasons.set(record.id, record.reason);
      if (record.verdict) this.verdicts.set(record.id, record.verdict);
      else this.verdicts.delete(record.id);
    }
  }

  get op(): BulkOp | undefined {
    return this.recordedOp;
  }

  stateOf(id: string): ItemState {
    return this.states.get(id) ?? 'new';
  }

  reasonOf(id: string): string | undefined {
    return this.reasons.get(id);
  }

  /** How the last reconciliation judged an unknown refund (`not_applied` lets --retry-unknown resend it). */
  verdictOf(id: string): string | undefined {
    return this.verdicts.get(id);
  }

  /** The last `sent` record of a payment: what was sent, and what its payment said just before. */
  sentOf(id: string): SentRecord | undefined {
    return this.sentRecords.get(id);
  }

  /** Payments sent and not known to be done or failed, in the order they were sent. */
  unresolved(): SentRecord[] {
    return [...this.sentRecords.values()]
      .filter((r) => ['in_flight', 'unknown'].includes(this.stateOf(r.id)))
      .sort((a, b) => a.line - b.line);
  }

  /** How many payments the journal knows in each state. */
  counts(): Record<Exclude<ItemState, 'new'>, number> {
    const c = { done: 0, failed: 0, unknown: 0, in_flight: 0 };
    for (const state of this.states.values()) if (state !== 'new') c[state]++;
    return c;
  }

  get resumed(): boolean {
    return this.states.size > 0;
  }

  write(record: JournalRecord) {
    writeSync(this.fd, `${JSON.stringify(record)}\n`);
    this.apply(record, undefined);
  }

  sent(id: string, line: number, amount?: number, currency?: string, amountRefunded?: number) {
    this.write({
      type: 'sent',
      id,
      line,
      amount,
      currency,
      amount_refunded: amountRefunded,
      at: new Date().toISOString(),
    });
  }

  outcome(
    id: string,
    result: OutcomeResult,
    details: { status?: string; refund_id?: string; reason?: string; verdict?: string },
  ) {
    this.write({ type: 'outcome', id, result, ...details, at: new Date().toISOString() });
  }

  close() {
    if (this.fd >= 0) {
      fsyncSync(this.fd);
      closeSync(this.fd);
      this.fd = -1;
    }
    this.lock?.release();
    this.lock = undefined;
  }
}
