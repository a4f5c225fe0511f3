import { createHash } from 'node:crypto';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { realDisk } from '../../bulk/disk';
import type { BulkItem, BulkOp } from '../../bulk/input';
import { Journal } from '../../bulk/journal';
import { arraySource, firstDifference, Totals } from '../../bulk/source';
import type { ItemSource } from '../../bulk/source';
import { UsageError } from '../../contract/errors';
import { unwritable, writableDir } from '../../config/writable';
import type { Context } from '../context';
import type { BulkRun } from './bulk-options';
import { amounts, confirmRun } from './bulk-confirm';
import { againHint, confirmNewRun, earlierJournals } from './new-run';

/** Pure: the profile part of a default journal's name, safe in a file name. */
export const profileSlug = (source: string) =>
  source
    .replace(/^profile /, '')
    .replace(/^environment$/, 'env')
    .replace(/[^A-Za-z0-9_-]/g, '_');

/**
 * Named after the operation, the profile and what the run would send (every item, after defaults),
 * so the same input again resumes its journal instead of moving the money again. `stamp`: a --new-run.
 */
async function defaultJournal(op: BulkOp, digest: string, ctx: Context, stamp: string): Promise<string> {
  return `${await journalStem(op, digest, ctx)}${stamp}.ndjson`;
}

/** The default journal's path without its --new-run stamp and extension. */
async function journalStem(op: BulkOp, digest: string, ctx: Context): Promise<string> {
  const creds = await ctx.credentials();
  const hash = createHash('sha256').update(`${op}\n${creds.baseUrl}\n${creds.keyId}\n${digest}\n`);
  const dir = join(ctx.paths.state, 'journals');
  writableDir(dir, 'journal directory', 0o700);
  chmodSync(dir, 0o700);
  return join(dir, `${op}-${profileSlug(creds.source)}-${hash.digest('hex').slice(0, 16)}`);
}

/**
 * The payments an earlier run of this journal sent without learning the outcome; for refunds also those
 * it finished, read back for a second refund carrying the same key (a duplicate), and those the service
 * refused, read back for a refund carrying the key after all.
 */
async function recheckItems(journal: Journal, op: BulkOp): Promise<BulkItem[]> {
  const unresolved = journal
    .unresolved()
    .map((r) => ({ line: r.line, id: r.id, amount: r.amount, currency: r.currency }));
  if (!journal.plan) return unresolved;
  // The plan's own rows, so a row is rechecked with its line and amount even when it was never sent.
  const wanted = (id: string) => {
    const state = journal.stateOf(id);
    if (state === 'in_flight' || state === 'unknown') return true;
    // A refused refund too: the same input run on another machine at once may have made it since.
    return op === 'refund' && (state === 'done' || (state === 'failed' && journal.sentOf(id) !== undefined));
  };
  const items: BulkItem[] = [];
  for await (const item of journal.planItems()) {
    if (!wanted(item.id)) continue;
    const sent = journal.sentOf(item.id); // "all that remains" was sent as a fixed amount: that one is shown
    items.push({ ...item, amount: item.amount ?? sent?.amount, currency: item.currency ?? sent?.currency });
  }
  return items;
}

export interface OpenedRun {
  journal: Journal;
  path: string;
  /** The items to work on: the journal's frozen plan, or with --recheck its unresolved payments. */
  items: ItemSource;
  /** The run's identity the refund keys derive from. */
  runId: string;
}

/** What is left of a resumed plan: how many rows the earlier runs finished, and the rest's total. */
async function leftOf(journal: Journal): Promise<{ done: number; left: number; totals: Totals; all: Totals }> {
  const totals = new Totals();
  const all = new Totals();
  let done = 0;
  let left = 0;
  for await (const item of journal.planItems()) {
    all.add(item);
    if (journal.stateOf(item.id) === 'done') done++;
    else {
      left++;
      totals.add(item);
    }
  }
  return { done, left, totals, all };
}

/** The journal's plan as the run's items: read back from the journal, never from the input. */
function planSource(journal: Journal): ItemSource {
  const plan = journal.plan!;
  return {
    total: plan.total,
    digest: plan.digest,
    totals: new Totals(),
    items: () => journal.planItems(),
    cleanup: () => undefined,
  };
}

/**
 * Finds and opens the journal, freezes the plan in it (the checked rows and their digest, durable)
 * before the question, then confirms: a resume says so and asks about what is left. The run executes
 * the journal's plan; an input given to resume a plan must match its digest (exit 2 naming the first
 * difference). `source` is undefined for a named journal alone (its plan is the input); it is cleaned up here.
 */
export async function openRun(run: BulkRun, source: ItemSource | undefined, ctx: Context): Promise<OpenedRun> {
  const { op, recheck } = run;
  let journal: Journal | undefined;
  try {
    const stamp =
      run.newRun && !recheck
        ? `-${new Date(ctx.nowMs()).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}-${process.pid}`
        : '';
    const path = run.journal ?? (await defaultJournal(op, source!.digest, ctx, stamp));
    const existed = realDisk.kind(path) === 'file';
    if ((recheck || !source) && !existed)
      throw new UsageError(`no journal ${path} to ${recheck ? 'recheck' : 'resume'}`);
    try {
      journal = Journal.open(path, op);
    } catch (err) {
      throw unwritable(err, 'journal', path);
    }
    if (journal.repaired)
      ctx.notice(
        `journal ${path}: its last record was cut short (${journal.repaired} bytes); ` +
          `${journal.repairedId ?? 'its payment'}'s outcome is unknown and is looked for before anything is sent`,
      );
    if (recheck) {
      source?.cleanup();
      const items = arraySource(await recheckItems(journal, op));
      const which = op === 'refund' ? 'done, refused, or whose outcome is not known' : 'whose outcome is not known';
      ctx.notice(`rechecking ${items.total} payment(s) of journal ${path} ${which}; nothing is sent`);
      return { journal, path, items, runId: journal.plan?.runId ?? items.digest };
    }
    if (!source && !journal.plan)
      throw new UsageError(`journal ${path} holds no plan to resume: give the input it was started with`);
    const given = source ?? planSource(journal);
    if (journal.plan && journal.plan.digest !== given.digest) {
      const diff = await firstDifference(journal.planItems(), given.items());
      throw new UsageError(
        `the input is not the one journal ${path} was planned from: ${diff ?? 'its digest differs'}; ` +
          'nothing was sent (give the same input to resume it, or another --journal for a new run)',
      );
    }
    if (!journal.plan) await journal.writePlan(op, given.digest, `${given.digest}${stamp}`, given.items(), given.total);
    given.cleanup();
    const items = planSource(journal);
    if (journal.resumed) {
      const { done, left, totals, all } = await leftOf(journal);
      const verb = op === 'capture' ? 'Capture' : 'Refund';
      const c = journal.counts();
      if (run.journal === undefined)
        ctx.notice(`same input as an earlier run: resuming its journal ${path} (${againHint(op, items.total, all)})`);
      ctx.notice(
        `resuming journal ${path}: ${c.done} done before, ${c.in_flight} in flight when it stopped, ` +
          `${c.unknown} unknown, ${c.failed} failed: each not done is looked for by its key before anything is sent`,
      );
      await confirmRun(
        op,
        `Resume: ${done} of ${items.total} done by the earlier run. ${verb} the remaining ${amounts(op, left, totals)}`,
        run.confirmLive,
        ctx,
      );
    } else {
      ctx.notice(`journal: ${path} (the same --journal, or the same input, resumes this run)`);
      const verb = op === 'capture' ? 'Capture' : 'Refund';
      // A journal given alone (a plan frozen, nothing run yet): its totals are the plan's.
      const totals = source ? given.totals : (await leftOf(journal)).all;
      const earlier = stamp ? earlierJournals(await defaultJournal(op, given.digest, ctx, ''), path) : [];
      const typed = earlier.length > 0 && (await confirmNewRun(op, given.total, totals, earlier, ctx));
      if (!typed || (await ctx.credentials()).live)
        await confirmRun(op, `${verb} ${amounts(op, given.total, totals)}`, run.confirmLive, ctx);
    }
    journal.write({ type: 'run', op, at: journal.stamp(), pid: process.pid, items: items.total });
    return { journal, path, items, runId: journal.plan!.runId };
  } catch (err) {
    source?.cleanup();
    journal?.close();
    throw err;
  }
}
