import type { BulkOp } from '../../bulk/input';
import type { ItemSource } from '../../bulk/source';
import { DeclinedError, UsageError } from '../../contract/errors';
import type { Context } from '../context';
import { promptSession } from '../prompt';

/**
 * A live profile needs its name typed before a bulk run (or --yes --confirm-live NAME without a
 * terminal). Only the prompt's own cancel (Ctrl-C, a signal) is "interrupted"; any other failure of
 * the question is reported as itself. Resolves only when confirmed.
 */
export async function confirmRun(op: BulkOp, source: ItemSource, confirmLive: string | undefined, ctx: Context) {
  const creds = await ctx.credentials();
  const verb = op === 'capture' ? 'Capture' : 'Refund';
  const what = `${verb} ${source.total} payment(s), total ${source.totals.describe()}`;
  if (!creds.live) return ctx.confirm(`${what}?`);
  const name = creds.source.replace(/^profile /, '');
  if (ctx.io.stdinIsTTY && ctx.io.stderrIsTTY) {
    const s = await promptSession(ctx);
    const message = `LIVE profile "${name}": ${what}. Type the profile name to go ahead:`;
    const typed = await s.ask((p) => p.input({ message }, s.context));
    if (typed.trim() !== name) throw new DeclinedError('the profile name was not typed: nothing was sent');
    return;
  }
  if (!ctx.settings.yes || confirmLive !== name) {
    throw new UsageError(
      `"${name}" is a live profile and there is no terminal to confirm on: pass --yes --confirm-live ${name} (${what})`,
    );
  }
}
