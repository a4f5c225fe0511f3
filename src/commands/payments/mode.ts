import { UsageError } from '../../contract/errors';
import type { Context } from '../context';
import type { CommandResult } from '../result';
import type { BulkRun } from './bulk-options';

/** How a capture or refund runs: one payment, a bulk run (journal, concurrency, resume), or guided. */
export type Mode = 'one' | 'bulk' | 'guided';

/** No id on a terminal (and no --yes/--dry-run, which mean a script): a person can be walked through it. */
export const guidable = (ctx: Context) =>
  ctx.io.stdinIsTTY && ctx.io.stderrIsTTY && !ctx.settings.yes && !ctx.settings.dryRun;

type ModeFlags = Pick<BulkRun, 'recheck'> &
  Partial<
    Pick<BulkRun, 'input' | 'journal' | 'concurrency' | 'newRun' | 'skipInvalid' | 'retryUnknown' | 'confirmLive'>
  >;

/** Flags that only a bulk run has: given with one id, they make it a bulk run of one rather than being ignored. */
const BULK_ONLY = ['journal', 'concurrency', 'newRun', 'skipInvalid', 'retryUnknown', 'confirmLive'] as const;

/**
 * Pure: many ids, --input or --recheck is a bulk run, and so is one id with a flag only a bulk run has
 * (--journal and the rest: a journaled refund of one payment is safe to run again); one id alone is
 * one payment; none asks, or is a usage error.
 */
export function modeOf(ids: string[], flags: ModeFlags, canGuide: boolean, op: 'capture' | 'refund'): Mode {
  if (ids.length > 1 || flags.input !== undefined || flags.recheck) return 'bulk';
  if (ids.length === 1 && BULK_ONLY.some((k) => flags[k] !== undefined && flags[k] !== false)) return 'bulk';
  if (ids.length === 1) return 'one';
  if (ids.length === 0 && flags.journal !== undefined) return 'bulk'; // a journal alone resumes its plan
  if (canGuide) return 'guided';
  throw new UsageError(
    `missing payment id: payctl payments ${op} PAY_ID (or --input FILE for many; ` +
      `on a terminal, no id starts a guided ${op})`,
  );
}

/** Runs a capture or refund as its ids and flags ask: a bulk run, guided, or `one` for the one id given. */
export async function runInMode(
  run: BulkRun,
  ctx: Context,
  one: (rawId: string) => Promise<CommandResult>,
  singleOnly = false,
): Promise<CommandResult> {
  const mode = modeOf(run.ids, run, guidable(ctx), run.op);
  if (singleOnly && mode !== 'one')
    throw new UsageError('--idempotency-key is for one refund; a bulk run derives a key for each row itself');
  if (mode === 'bulk') return (await import('./bulk')).runBulk(run, ctx);
  if (mode === 'guided') {
    const guided = await import('./guided');
    return run.op === 'capture' ? guided.guidedCapture(ctx) : guided.guidedRefund(ctx);
  }
  return one(run.ids[0]!);
}
