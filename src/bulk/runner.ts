import { AuthError } from '../contract/errors';
import type { BulkItem, BulkOp } from './input';
import type { ItemState, Journal } from './journal';
import type { ItemOutcome, Perform, RowResult } from './outcome';
import type { Progress } from './progress';

/** One line of a bulk run's output. */
export interface BulkRow {
  line: number;
  payment_id: string;
  op: BulkOp;
  result: RowResult;
  status: string | null;
  amount: number | null;
  currency: string | null;
  refund_id: string | null;
  reason: string | null;
}

export interface Summary {
  done: number;
  skipped: number;
  failed: number;
  unknown: number;
  /** Rows more than one refund carries the key of. */
  duplicate: number;
  notStarted: number;
  interrupted: boolean;
  /** Rows that need a person: failed, unknown and duplicate, in input order. */
  attention: BulkRow[];
}

export interface RunOptions {
  op: BulkOp;
  perform: Perform;
  /** Only reading back what earlier runs sent: a "skipped" was never looked at. */
  recheck?: boolean;
  /** Read as the workers take them (a file is not held in memory); `total` of them. */
  items: AsyncIterable<BulkItem>;
  total: number;
  concurrency: number;
  journal: Journal;
  signal: AbortSignal;
  progress: Progress;
  onRow: (row: BulkRow) => void;
  /** The refund key of a row (see identity.ts); undefined for captures. */
  keyOf?: (item: BulkItem) => string | undefined;
  /**
   * Rows an earlier run finished are looked at again (`perform` with state `done`) rather than skipped:
   * a refund resume or recheck reads back whether more than one refund carries a row's key.
   */
  verifyDone?: boolean;
}

/** At most `free` holders at once; the rest wait in order. */
class Slots {
  private readonly waiting: Array<() => void> = [];
  constructor(private free: number) {}
  take(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  give() {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

const rowOf = (op: BulkOp, item: BulkItem, o: ItemOutcome): BulkRow => ({
  line: item.line,
  payment_id: item.id,
  op,
  result: o.result,
  status: o.status ?? null,
  amount: o.amount ?? item.amount ?? null,
  currency: o.currency ?? item.currency ?? null,
  refund_id: o.refund_id ?? null,
  reason: o.reason ?? null,
});

/**
 * Runs the items through `concurrency` workers sharing one client (and so one connection pool and
 * one 429 gate). On abort, workers stop taking items but every request already sent is seen to its
 * outcome and journaled, so the run can be resumed with nothing lost or done twice.
 */
export async function runBulk(opts: RunOptions): Promise<Summary> {
  const { op, journal } = opts;
  const items = opts.items[Symbol.asyncIterator]();
  const summary: Summary = {
    done: 0,
    skipped: 0,
    failed: 0,
    unknown: 0,
    duplicate: 0,
    notStarted: 0,
    interrupted: false,
    attention: [],
  };
  let fatal: unknown;
  const { perform } = opts;

  const finishItem = (item: BulkItem, outcome: ItemOutcome) => {
    const row = rowOf(op, item, outcome);
    summary[outcome.result]++;
    if (outcome.result === 'failed' || outcome.result === 'unknown' || outcome.result === 'duplicate')
      summary.attention.push(row);
    opts.progress.tick();
    opts.onRow(row);
  };

  const worker = async () => {
    const stop = () => opts.signal.aborted || fatal !== undefined || journal.failure !== undefined;
    while (!stop()) {
      const r = await items.next();
      if (r.done || stop()) return; // an item taken after the stop is not started
      const item = r.value;
      const state: ItemState = journal.stateOf(item.id);
      if (state === 'done' && !opts.verifyDone) {
        finishItem(item, { result: 'skipped', reason: 'done by an earlier run (journal)' });
        continue;
      }
      let sent = false;
      let held = false;
      let outcome: ItemOutcome;
      try {
        outcome = await perform(item, {
          state,
          previous: journal.sentOf(item.id),
          // A row sent before keeps the key it was sent with (none: an older payctl's, never guessed).
          key: journal.sentOf(item.id) ? journal.sentOf(item.id)!.key : opts.keyOf?.(item),
          mark: async ({ amount, currency, amountRefunded, key, deadlineMs }) => {
            const deadline = deadlineMs === undefined ? {} : { deadline_ms: deadlineMs };
            journal.sent({
              id: item.id,
              line: item.line,
              amount,
              currency,
              amount_refunded: amountRefunded,
              key,
              ...deadline,
            });
            await journal.durable();
            sent = true;
            await slots.take();
            held = true;
          },
          wasSent: () => sent,
        });
      } catch (err) {
        if (held) slots.give();
        fatal = err;
        // Stopped by a failure that is not this item's. A 401 proves nothing was applied; anything
        // else after sending leaves the outcome unknown, and the journal says so.
        if (sent)
          journal.outcome(item.id, err instanceof AuthError ? 'failed' : 'unknown', { reason: (err as Error).message });
        return;
      }
      if (held) slots.give();
      // A recheck's "skipped" was never looked at: the journal keeps what it had.
      if (!(opts.recheck && outcome.result === 'skipped')) {
        // A duplicate's money moved (more than once): never sent again, reported on every resume.
        const journaled = outcome.result === 'skipped' || outcome.result === 'duplicate' ? 'done' : outcome.result;
        journal.outcome(item.id, journaled, {
          status: outcome.status,
          refund_id: outcome.refund_id,
          reason: outcome.reason,
          verdict: outcome.verdict,
        });
      }
      finishItem(item, outcome);
    }
  };

  // Twice as many workers as sends at once: while some wait for their `sent` record's fsync, the others
  // keep every one of the `concurrency` slots busy, so the durable journal costs no throughput.
  const slots = new Slots(opts.concurrency);
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency * 2, opts.total)) }, worker));
  const finished = summary.done + summary.skipped + summary.failed + summary.unknown + summary.duplicate;
  summary.notStarted = opts.total - finished;
  summary.interrupted = opts.signal.aborted;
  summary.attention.sort((a, b) => a.line - b.line);
  fatal ??= journal.failure;
  if (fatal !== undefined) throw Object.assign(fatal as object, { summary });
  return summary;
}
