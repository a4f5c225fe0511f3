import { captureSafely } from '../../client/capture';
import type { ApiClient, Prepared } from '../../client/client';
import { OutcomeUnknownError, UsageError } from '../../contract/errors';
import { stripControl } from '../../output/sanitize';
import type { Context } from '../context';
import { amountFlag, currencyFlag } from '../flags';
import { printed } from '../invocation';
import { one } from '../result';

/** What a capture sends when given: both --amount and --currency, or neither (the payment's own figures). */
export type CaptureMoney = { amount: number; currency: string } | { amount?: undefined; currency?: undefined };

/** Pure: --amount and --currency checked together; `without` says what happens when both are left out. */
export function captureMoney(opts: { amount?: string; currency?: string }, without: string): CaptureMoney {
  const currency = currencyFlag(opts.currency);
  const amount = amountFlag(opts.amount, currency);
  if (amount !== undefined && currency !== undefined) return { amount, currency };
  if (amount === undefined && currency === undefined) return {};
  throw new UsageError(`--amount and --currency go together (without both, ${without})`);
}

/**
 * The capture request as --dry-run shows it: without an amount, placeholders for the figures that are
 * read from the payment when run for real.
 */
export function captureRequest(api: ApiClient, id: string, money: CaptureMoney): Prepared {
  if (money.amount !== undefined) return api.prepare('capturePayment', { params: { id }, body: money });
  const path = `/payments/${encodeURIComponent(id)}/capture`;
  return {
    endpoint: 'capturePayment',
    method: 'POST',
    path,
    url: api.http.url({ path }),
    body: { amount: `<amount of ${id}>`, currency: `<currency of ${id}>` },
  };
}

/** One capture, sent once; when its first answer was lost and the payment was read back, says so. */
export async function captureOnce(ctx: Context, api: ApiClient, id: string, amount: number, currency: string) {
  let outcome;
  try {
    outcome = await captureSafely(api, id, amount, currency);
  } catch (err) {
    if (!(err instanceof OutcomeUnknownError)) throw err;
    const check = printed(ctx.settings, ['payments', 'get', id]);
    throw new OutcomeUnknownError(err.message, `run \`${check}\` to see whether it is captured`, err.answer);
  }
  if (outcome.reconciled)
    ctx.notice(
      "payctl: the capture's first answer was lost; confirmed by reading the payment back: " +
        `${id} is ${stripControl(String(outcome.payment.status))}`,
    );
  return one('payment', outcome.payment);
}
