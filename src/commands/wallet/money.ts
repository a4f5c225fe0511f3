import type { Prepared } from '../../client/client';
import { OutcomeUnknownError } from '../../contract/errors';
import { parseAmount } from '../../contract/values/amount';
import { INR } from '../../contract/vocabulary';
import type { ResourceKind } from '../../output/columns';
import { dryRun } from '../check';
import type { Context } from '../context';
import { need } from '../flags';
import { one } from '../result';
import { noticeOnce } from './notice';
import type { CommandResult } from '../result';

/** Wallet amounts are paise: the wallet exists only in rupees, so payctl fills in the currency. */
export const paise = (raw: string, flag = '--amount') => need(parseAmount(raw, INR), flag);

/** Once per terminal session, never on a machine-format stdout (notice.ts). */
export function discontinued(ctx: Context) {
  noticeOnce(
    ctx,
    'wallet-discontinued',
    'note: the customer wallet product is discontinued (support ended April 2023); ' +
      'these endpoints may be unavailable on the live service (shown once per terminal session; ' +
      'PAYCTL_NO_NOTICES=1 silences it)',
  );
}

/**
 * The path every single money movement takes: shown with --dry-run; otherwise confirm (a person on a
 * TTY, or --yes), send once, and if the answer is lost say how to check instead of resending, since
 * these endpoints cannot be reconciled from the documented interface.
 */
export async function moveMoney(
  ctx: Context,
  req: Prepared,
  kind: ResourceKind,
  question: string,
  check: string,
): Promise<CommandResult> {
  if (ctx.settings.dryRun) return dryRun(req);
  const api = await ctx.api();
  await ctx.confirm(question);
  try {
    return one(kind, await api.execute(req));
  } catch (err) {
    if (err instanceof OutcomeUnknownError)
      throw new OutcomeUnknownError(err.message, `do not resend blindly: ${check}`, err.answer);
    throw err;
  }
}
