import type { Prepared } from '../../client/client';
import { OutcomeUnknownError } from '../../contract/errors';
import type { Context } from '../context';

/**
 * The path every single money movement takes once past --dry-run: confirm
 * (a person on a TTY, or --yes), send once, and if the answer is lost say how to check instead of
 * resending — these endpoints cannot be reconciled from the documented interface.
 */
export async function moveMoney(ctx: Context, req: Prepared, question: string, check: string): Promise<unknown> {
  const api = await ctx.api();
  await ctx.confirm(question);
  try {
    return await api.execute(req);
  } catch (err) {
    if (err instanceof OutcomeUnknownError)
      throw new OutcomeUnknownError(err.message, `do not resend blindly: ${check}`, err.answer);
    throw err;
  }
}
