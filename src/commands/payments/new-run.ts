import { readdirSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { BulkOp } from '../../bulk/input';
import type { Totals } from '../../bulk/source';
import { DeclinedError, UsageError } from '../../contract/errors';
import type { Context } from '../context';
import { promptSession } from '../prompt';
import { amounts } from './bulk-confirm';

/** Pure: what a --new-run of this input would move again, for the hint a resume of it prints. */
export function againHint(op: BulkOp, count: number, totals: Totals): string {
  return `a --new-run would ${op} ${amounts(op, count, totals)} AGAIN, and asks for that total to be typed`;
}

/** The journals earlier runs of this same input left (the default one, and those of earlier --new-runs), but `own`. */
export function earlierJournals(defaultPath: string, own: string): string[] {
  const stem = basename(defaultPath).replace(/\.ndjson$/, '');
  try {
    return readdirSync(dirname(defaultPath)).filter(
      (f) => f !== basename(own) && (f === `${stem}.ndjson` || (f.startsWith(`${stem}-`) && f.endsWith('.ndjson'))),
    );
  } catch {
    return [];
  }
}

/**
 * Pure: what is to be typed to confirm a new run over an earlier one: the total (any of `₹1,00,000.00`,
 * `100000.00`, `100000`, `10000000 paise` for one currency), or the number of payments when the
 * amounts are read when sent or in several currencies.
 */
export function expectedAnswer(count: number, totals: Totals): { ask: string; accepts: (typed: string) => boolean } {
  const money = totals.money();
  const single = /^\S+ \((\d+) paise\)$/.exec(money);
  if (totals.unread || !single) {
    return { ask: `the number of payments (${count})`, accepts: (t) => t.trim() === String(count) };
  }
  const paise = Number(single[1]);
  const rupees = (paise / 100).toFixed(2);
  const forms = new Set([rupees, rupees.replace(/\.00$/, ''), `${paise} paise`, `${paise}paise`]);
  return {
    ask: `the total (${money})`,
    accepts: (t) =>
      forms.has(
        t
          .trim()
          .replace(/^\u20b9/, '')
          .replace(/,/g, '')
          .replace(/\s+/g, ' '),
      ),
  };
}

/**
 * A --new-run of an input that ran before moves its money again: on a terminal the total (or the number
 * of payments) must be typed; without one, --yes with --new-run is the confirmation. Resolves true when
 * the total was typed (the question that asked it was the confirmation).
 */
export async function confirmNewRun(
  op: BulkOp,
  count: number,
  totals: Totals,
  earlier: string[],
  ctx: Context,
): Promise<boolean> {
  const runs = earlier.length === 1 ? 'once' : `${earlier.length} times`;
  const what = `this same input ran before (${runs}): this new run will ${op} ${amounts(op, count, totals)} AGAIN`;
  if (!(ctx.io.stdinIsTTY && ctx.io.stderrIsTTY)) {
    if (!ctx.settings.yes)
      throw new UsageError(`${what}: without a terminal, pass --yes with --new-run to do so; nothing was sent`);
    ctx.notice(`${what} (--new-run --yes)`);
    return false;
  }
  const expected = expectedAnswer(count, totals);
  const s = await promptSession(ctx);
  const message = `${what}. Type ${expected.ask} to go ahead:`;
  const typed = await s.ask((p) => p.input({ message }, s.context));
  if (!expected.accepts(typed)) throw new DeclinedError(`${expected.ask} was not typed: nothing was sent`);
  return true;
}
