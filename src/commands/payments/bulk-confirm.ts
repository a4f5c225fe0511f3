import type { BulkOp } from '../../bulk/input';
import type { Totals } from '../../bulk/source';
import { DeclinedError, UsageError } from '../../contract/errors';
import type { Context } from '../context';
import { promptSession } from '../prompt';

/**
 * A live profile needs its name typed before a bulk run (or --yes --confirm-live NAME without a
 * terminal). Only the prompt's own cancel (Ctrl-C, a signal) is "interrupted"; any other failure of
 * the question is reported as itself. `what`: the run (or what a resume has left) and its total.
 * Resolves only when confirmed.
 */
export async function confirmRun(_op: BulkOp, what: string, confirmLive: string | undefined, ctx: Context) {
  const creds = await ctx.credentials();
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

/** What a row without an amount moves, in words that cannot be read as a money total. */
export const UNREAD_WHEN_SENT: Record<BulkOp, string> = {
  capture: "each payment's full authorized amount, read when it is sent",
  refund: 'all that remains of each payment, read when it is sent',
};

/** Pure: "N payment(s), total ₹X", or the amounts the service decides in words, never a count as a total. */
export function amounts(
  op: BulkOp,
  count: number,
  totals: Totals,
  unread = UNREAD_WHEN_SENT[op],
  noun = 'payment(s)',
): string {
  const given = totals.money();
  if (!totals.unread) return `${count} ${noun}, total ${given || 'nothing'}`;
  if (!given) return `${count} ${noun} at ${unread}`;
  return `${count} ${noun}: ${given} for ${count - totals.unread} of them, plus ${totals.unread} at ${unread}`;
}
