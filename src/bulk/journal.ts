import { dirname } from 'node:path';
import { UsageError } from '../contract/errors';
import { realDisk } from './disk';
import type { Disk, DiskFile } from './disk';
import type { BulkItem, BulkOp } from './input';
import { itemOf, lines, parseRecord, rowRecord, tornId } from './journal-records';
import type {
  ItemState,
  JournalDeps,
  JournalRecord,
  OutcomeResult,
  Plan,
  RowRecord,
  SentRecord,
} from './journal-records';
import { DurableFile, JournalWriteError } from './journal-file';
import { takeLock } from './lock';

export type { ItemState, JournalDeps, JournalRecord, SentRecord } from './journal-records';
export { JournalWriteError } from './journal-file';

/**
 * How long the first record of a group waits for others to join its fsync. Every fsync of a growing
 * file is a file-system commit that the service on the same disk pays for too: fewer, larger groups.
 */
const COMMIT_WINDOW_MS = 4;

/** The largest journal payctl reads (a million rows with their records fit well within it). */
export const MAX_JOURNAL_BYTES = 2 * 1024 ** 3;

/**
 * The record of a bulk run, one JSON object per line: first the frozen plan (every row as it will be
 * sent, and the input's digest), then a `sent` record made durable before each request goes out and
 * an `outcome` once its answer is in. A record is written whole or the run stops; a torn last record
 * makes its payment's state unknown, never "not sent". A lock beside it (lock.ts) keeps two runs from
 * ever working from the same journal at once.
 */
export class Journal {
  private file: DiskFile | undefined;
  private out: DurableFile | undefined;
  private readonly states = new Map<string, ItemState>();
  private readonly reasons = new Map<string, string>();
  private readonly sentRecords = new Map<string, SentRecord>();
  private recordedOp: BulkOp | undefined;
  private lock: { release(): void } | undefined;
  private size = 0;
  private planStart = 0;
  private pendingPlan: Omit<Plan, 'start'> | undefined;
  private completePlan: Plan | undefined;
  private readonly disk: Disk;
  private readonly now: () => number;
  private readonly defer: (fn: () => void) => void;
  /** Bytes cut off the end: the record a kill or a failed write interrupted. */
  repaired = 0;
  /** The payment the cut record was about, when its start survived; undefined: it could be any row not done. */
  repairedId: string | undefined;
  /** Set once a write failed: nothing more is sent. */
  get failure(): JournalWriteError | undefined {
    return this.out?.failure;
  }

  private constructor(
    readonly path: string,
    deps: JournalDeps,
  ) {
    this.disk = deps.disk ?? realDisk;
    this.now = deps.now ?? Date.now;
    this.defer = deps.defer ?? ((fn) => setTimeout(fn, COMMIT_WINDOW_MS));
  }

  /** `op` undefined: whatever operation the journal holds (a recheck). */
  static open(
    path: string,
    op: BulkOp | undefined,
    opts: { mustExist?: boolean } = {},
    deps: JournalDeps = {},
  ): Journal {
    const journal = new Journal(path, deps);
    const { disk } = journal;
    if (disk.kind(path) === 'other') throw new UsageError(`--journal ${path} is not a regular file`);
    disk.mkdirp(dirname(path));
    journal.lock = (deps.lock ?? takeLock)(`${path}.lock`);
    try {
      const exists = disk.kind(path) === 'file';
      if (opts.mustExist && !exists) throw new UsageError(`journal ${path} does not exist`);
      journal.file = disk.open(path, 'append');
      journal.load(op);
      journal.out = new DurableFile(path, journal.file, journal.size, journal.defer);
    } catch (err) {
      journal.close();
      throw err;
    }
    return journal;
  }

  private load(op: BulkOp | undefined) {
    const file = this.file!;
    const end = file.size();
    if (end > MAX_JOURNAL_BYTES)
      throw new UsageError(`journal ${this.path} is larger than ${MAX_JOURNAL_BYTES / 1024 ** 3} GiB: not a journal`);
    let n = 0;
    for (const l of lines((p, len) => file.read(p, len), 0, end)) {
      n++;
      this.size = l.next;
      if (!l.text.trim()) continue;
      const record = parseRecord(l.text);
      if (!record || !l.whole) {
        if (l.whole && record === undefined && l.next < end)
          throw new UsageError(
            `journal ${this.path} line ${n} is damaged (${JSON.stringify(l.text.slice(0, 40))}); ` +
              'it cannot be used to resume safely: keep it for the record and check its payments by hand',
          );
        if (!l.whole || record === undefined) {
          // The last record, cut short: whatever it announced may have been sent.
          this.repairTail(l.start, l.text);
          return;
        }
      }
      this.apply(record, op, l.next);
    }
  }

  /** Cuts a torn last record off, durably; its payment (if it can be told) is in flight from now on. */
  private repairTail(keep: number, fragment: string) {
    this.file!.truncate(keep);
    this.file!.sync();
    this.size = keep;
    this.repaired = Buffer.byteLength(fragment);
    this.repairedId = tornId(fragment);
    if (this.repairedId && this.stateOf(this.repairedId) !== 'done') this.states.set(this.repairedId, 'in_flight');
  }

  private apply(record: JournalRecord, op: BulkOp | undefined, next: number) {
    switch (record.type) {
      case 'plan':
        if (op && record.op !== op)
          throw new UsageError(
            `journal ${this.path} belongs to a bulk ${record.op}, not a ${op}: use another --journal`,
          );
        this.pendingPlan = { digest: record.digest, runId: record.run_id, total: record.total };
        this.planStart = next;
        break;
      case 'planned':
        if (this.pendingPlan?.digest === record.digest)
          this.completePlan = { ...this.pendingPlan, start: this.planStart };
        break;
      case 'run':
        if (op && record.op !== op)
          throw new UsageError(
            `journal ${this.path} belongs to a bulk ${record.op}, not a ${op}: use another --journal`,
          );
        this.recordedOp ??= record.op;
        break;
      case 'sent':
        this.states.set(record.id, 'in_flight');
        this.sentRecords.set(record.id, record);
        break;
      case 'outcome':
        this.states.set(record.id, record.result);
        if (record.reason) this.reasons.set(record.id, record.reason);
        break;
    }
  }

  get op(): BulkOp | undefined {
    return this.recordedOp;
  }

  /** The frozen plan, once written whole: its digest, run identity and row count. */
  get plan(): Omit<Plan, 'start'> | undefined {
    return this.completePlan;
  }

  stateOf(id: string): ItemState {
    return this.states.get(id) ?? 'new';
  }

  reasonOf(id: string): string | undefined {
    return this.reasons.get(id);
  }

  /** The last `sent` record of a payment: what was sent, its key, and what its payment said just before. */
  sentOf(id: string): SentRecord | undefined {
    return this.sentRecords.get(id);
  }

  /** Payments sent and not known to be done or failed, in the order they were sent. */
  unresolved(): SentRecord[] {
    const ids = [...this.states].filter(([, s]) => s === 'in_flight' || s === 'unknown').map(([id]) => id);
    return ids
      .map((id) => this.sentRecords.get(id) ?? ({ id, type: 'sent', line: 0, at: '' } as SentRecord))
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

  /** Appends one record whole: a short write is continued, and one that writes nothing stops the run. */
  write(record: JournalRecord) {
    this.out!.append(Buffer.from(`${JSON.stringify(record)}\n`));
    this.apply(record, undefined, this.out!.size);
  }

  /** Resolves once every record appended so far is on the disk (one fsync for all of one moment). */
  durable(): Promise<void> {
    return this.out!.durable();
  }

  /** The frozen plan: the rows, then the digest that names them, made durable before anything is asked. */
  async writePlan(op: BulkOp, digest: string, runId: string, rows: AsyncIterable<BulkItem>, total: number) {
    this.write({ type: 'plan', op, digest, run_id: runId, total, at: this.stamp() });
    let batch: string[] = [];
    let bytes = 0;
    for await (const item of rows) {
      const text = `${JSON.stringify(rowRecord(item))}\n`;
      batch.push(text);
      bytes += text.length;
      if (bytes >= 1 << 16) {
        this.out!.append(Buffer.from(batch.join('')));
        batch = [];
        bytes = 0;
      }
    }
    if (batch.length) this.out!.append(Buffer.from(batch.join('')));
    this.write({ type: 'planned', digest, total, at: this.stamp() });
    await this.durable();
  }

  /** The plan's rows, read back from the journal a chunk at a time. */
  async *planItems(): AsyncIterable<BulkItem> {
    const plan = this.completePlan;
    if (!plan) return;
    const reader = this.disk.open(this.path, 'read');
    try {
      for (const l of lines((p, len) => reader.read(p, len), plan.start, reader.size())) {
        const r = parseRecord(l.text);
        if (!r || r.type !== 'row') return;
        yield itemOf(r as RowRecord);
      }
    } finally {
      reader.close();
    }
  }

  stamp(): string {
    return new Date(this.now()).toISOString();
  }

  /** Announces a request; the caller awaits `durable()` before sending it. */
  sent(record: Omit<SentRecord, 'type' | 'at'>) {
    const { id, ...rest } = record;
    this.write({ id, type: 'sent', ...rest, at: this.stamp() });
  }

  /**
   * Records what became of a payment. If the journal can no longer be written, the failure is kept
   * (the run stops taking payments) rather than thrown: the row is still reported, and a resume reads
   * it back as in flight.
   */
  outcome(
    id: string,
    result: OutcomeResult,
    details: { status?: string; refund_id?: string; reason?: string; verdict?: string },
  ) {
    try {
      this.write({ id, type: 'outcome', result, ...details, at: this.stamp() });
    } catch (err) {
      if (!(err instanceof JournalWriteError)) throw err;
    }
  }

  close() {
    if (this.out) this.out.close();
    else this.file?.close();
    this.out = undefined;
    this.file = undefined;
    this.lock?.release();
    this.lock = undefined;
  }
}
