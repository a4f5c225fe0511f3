import { captureSafely } from '../../client/capture';
import type { ApiClient, Prepared } from '../../client/client';
import { FailureError, OutcomeUnknownError, UsageError } from '../../contract/errors';
import type { PaymentRecord } from '../../contract/resources';
import { paymentProblem } from '../../contract/rules';
import { stripControl, stripInvisible } from '../../output/sanitize';
import type { Context } from '../context';
import { amountFlag, currencyFlag } from '../flags';
import { printed } from '../invocation';
import { one } from '../result';
import type { DryRunResult } from '../result';

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

/** The payment, read now and checked to be the one asked for, with figures money arithmetic can use. */
export async function readPayment(api: ApiClient, id: string): Promise<PaymentRecord> {
  const payment = await api.call<PaymentRecord>('getPayment', { params: { id } });
  const problem = paymentProblem(payment, id);
  if (problem) throw new FailureError(`${problem}; nothing was sent`);
  return payment;
}

/**
 * A capture's plan, read now (`--dry-run --read`, and every plan `payctl mcp` shows): the payment's own
 * amount and currency unless both were given, fixed in the plan, and what the payment holds.
 */
export async function planCapture(api: ApiClient, id: string, money: CaptureMoney): Promise<DryRunResult> {
  const p = await readPayment(api, id);
  const figures = money.amount !== undefined ? money : { amount: Number(p.amount), currency: p.currency };
  return {
    type: 'dry-run',
    requests: [captureRequest(api, id, figures)],
    fixed: { amount: String(figures.amount), currency: figures.currency },
    state: { id, status: stripInvisible(String(p.status)), amount: Number(p.amount), currency: p.currency },
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
