import type { ApiClient } from '../../client/client';
import { UsageError } from '../../contract/errors';
import { Channel } from '../../bulk/channel';
import { Progress } from '../../bulk/progress';
import { runBulk as runItems } from '../../bulk/runner';
import type { BulkRow, Summary } from '../../bulk/runner';
import type { ItemSource } from '../../bulk/source';
import type { Context } from '../context';
import type { CommandResult } from '../result';
import { bulkDryRun } from './bulk-dry-run';
import { openRun } from './bulk-journal';
import { planBulk } from './bulk-options';
import type { BulkRun } from './bulk-options';
import { incomplete, journalFailed, nextCommands, stopped, summaryLine } from './bulk-report';
import { readSource } from './bulk-source';
import { operations } from './operations';
import { rowKey } from '../../bulk/identity';
import { JournalWriteError } from '../../bulk/journal';

/**
 * Many captures or refunds: input checked in full before anything is sent, one journal that makes
 * the run resumable, bounded concurrency over one pool, one result row per payment, exit 7 when any
 * payment failed or its outcome is unknown. `--recheck` only reads back a journal's unknowns.
 */
export async function runBulk(run: BulkRun, ctx: Context): Promise<CommandResult> {
  const { op, recheck } = run;
  const plan = planBulk(run);
  if (run.read && !ctx.settings.dryRun)
    throw new UsageError('--read goes with --dry-run (it reads each payment to total what a run would send)');
  const source: ItemSource | undefined = plan.readInput ? await readSource(run, plan, ctx) : undefined;
  let api: ApiClient;
  try {
    api = await ctx.api(undefined, { uninterruptible: true, connections: plan.concurrency });
  } catch (err) {
    source?.cleanup();
    throw err;
  }
  if (ctx.settings.dryRun && !recheck && !source)
    throw new UsageError('--dry-run shows what an input would send: give the ids or --input');
  if (ctx.settings.dryRun && !recheck) return bulkDryRun(op, source!, api, ctx.settings.format === 'table', run.read);
  let opened;
  try {
    opened = await openRun(run, source, ctx);
  } catch (err) {
    if (!(err instanceof JournalWriteError)) throw err;
    throw journalFailed(err, err.path, nextCommands(ctx.settings, op, err.path, run.confirmLive));
  }
  const { journal, path, items, runId } = opened;
  const next = nextCommands(ctx.settings, op, path, run.confirmLive);

  const rows = new Channel<BulkRow>();
  const progress = new Progress(ctx.io.stderr, items.total, ctx.io.stderrIsTTY);
  const perform = operations[op];
  let summary: Summary | undefined;
  const done = runItems({
    op,
    items: items.items(),
    total: items.total,
    concurrency: plan.concurrency,
    journal,
    signal: ctx.signal,
    progress,
    perform: (item, at) =>
      perform(item, at, {
        api,
        retryUnknown: run.retryUnknown,
        recheck,
        invocation: ctx.settings,
        deadlineMs: ctx.settings.timeoutMs,
        nowMs: () => ctx.nowMs(),
      }),
    keyOf: op === 'refund' ? (item) => rowKey(runId, item) : undefined,
    verifyDone: op === 'refund' && (recheck || journal.resumed),
    recheck,
    onRow: (row) => rows.push(row),
  })
    .then((s) => (summary = s))
    .finally(() => {
      progress.clear();
      if (summary && !recheck) {
        const { done, skipped, failed, unknown, notStarted: not_started } = summary;
        try {
          journal.write({ type: 'end', at: journal.stamp(), done, skipped, failed, unknown, not_started });
        } catch {
          /* the journal's failure is reported with the summary */
        }
      }
      journal.close();
      items.cleanup();
      rows.close();
    });
  done.catch(() => undefined); // surfaced by finish()

  return {
    type: 'many',
    kind: 'bulk_result',
    items: rows,
    after: () => (summary ? summaryLine(summary, path) : undefined),
    finish: async () => {
      const s = await done.catch((err: unknown) => {
        throw err instanceof JournalWriteError ? journalFailed(err, path, next) : err;
      });
      if (s.interrupted) throw stopped(s, path, ctx.signal.reason, next);
      if (s.failed || s.unknown || s.duplicate) throw incomplete(op, s, path, recheck, next);
    },
  };
}
