import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BulkItem, BulkOp } from '../../bulk/input';
import { Journal } from '../../bulk/journal';
import { arraySource } from '../../bulk/source';
import type { ItemSource } from '../../bulk/source';
import { UsageError } from '../../contract/errors';
import type { Context } from '../context';
import type { BulkRun } from './bulk-options';
import { confirmRun } from './bulk-confirm';

/** Pure: the profile part of a default journal's name, safe in a file name. */
export const profileSlug = (source: string) =>
  source
    .replace(/^profile /, '')
    .replace(/^environment$/, 'env')
    .replace(/[^A-Za-z0-9_-]/g, '_');

/**
 * Named after the operation, the profile and what the run would send (every item, after defaults),
 * so the same input again resumes its journal instead of moving the money again.
 */
async function defaultJournal(op: BulkOp, digest: string, ctx: Context, newRun: boolean): Promise<string> {
  const creds = await ctx.credentials();
  const hash = createHash('sha256').update(`${op}\n${creds.baseUrl}\n${creds.keyId}\n${digest}\n`);
  const dir = join(ctx.paths.state, 'journals');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const stamp = newRun
    ? `-${new Date(ctx.nowMs()).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}-${process.pid}`
    : '';
  return join(dir, `${op}-${profileSlug(creds.source)}-${hash.digest('hex').slice(0, 16)}${stamp}.ndjson`);
}

/** The payments an earlier run of this journal sent without learning the outcome. */
function recheckItems(journal: Journal): BulkItem[] {
  return journal.unresolved().map((r) => ({ line: r.line, id: r.id, amount: r.amount, currency: r.currency }));
}

export interface OpenedRun {
  journal: Journal;
  path: string;
  /** The items to work on: the input's, or with --recheck the journal's unresolved payments. */
  items: ItemSource;
  /** The run's identity the refund keys derive from. */
  runId: string;
}

/**
 * Finds the journal, confirms the run (not a recheck, which sends nothing) and opens the journal,
 * saying on stderr whether it starts, resumes or rechecks a run. `source` is undefined only for a
 * --recheck of a named journal; it is cleaned up if this fails.
 */
export async function openRun(run: BulkRun, source: ItemSource | undefined, ctx: Context): Promise<OpenedRun> {
  const { op, recheck } = run;
  try {
    const path = run.journal ?? (await defaultJournal(op, source!.digest, ctx, run.newRun && !recheck));
    const existed = existsSync(path);
    if (recheck && !existed) throw new UsageError(`no journal ${path} to recheck`);
    if (!recheck) await confirmRun(op, source!, run.confirmLive, ctx);
    const journal = Journal.open(path, op);
    if (journal.repaired)
      ctx.notice(
        `journal ${path}: removed its last record, cut short by a kill (${journal.repaired} bytes); ` +
          'nothing it described was sent',
      );
    if (recheck) {
      source?.cleanup();
      source = arraySource(recheckItems(journal));
      ctx.notice(
        `rechecking ${source.total} payment(s) of journal ${path} whose outcome is not known; nothing is sent`,
      );
    } else if (run.journal === undefined && existed) {
      ctx.notice(`same input as an earlier run: resuming its journal ${path} (pass --new-run to ${op} them all again)`);
    } else {
      ctx.notice(`journal: ${path} (the same --journal resumes this run)`);
    }
    if (journal.resumed && !recheck) {
      const c = journal.counts();
      ctx.notice(
        `resuming: ${c.done} done before, ${c.in_flight} in flight when it stopped, ` +
          `${c.unknown} unknown (read back first), ${c.failed} failed (retried)`,
      );
    }
    if (!recheck)
      journal.write({ type: 'run', op, at: new Date().toISOString(), pid: process.pid, items: source!.total });
    return { journal, path, items: source!, runId: journal.plan?.runId ?? source!.digest };
  } catch (err) {
    source?.cleanup();
    throw err;
  }
}
