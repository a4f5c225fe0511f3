import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiClient } from '../../client/client';
import { NetworkError, OutcomeUnknownError, UsageError } from '../../contract/errors';
import { reconcileRefund, remaining } from '../../client/refund';
import type { RefundBaseline } from '../../client/refund';
import { formatMoney } from '../../output/money';
import { stripControl } from '../../output/sanitize';
import type { Context } from '../context';
import { one } from '../result';
import type { CommandResult } from '../result';

/** How long the service gets to apply a refund whose answer was lost before the payment is read back. */
const SETTLE_MS = 1_000;

export interface RefundRequest {
  /** Undefined: everything that remains (sent as that explicit amount, so what was confirmed is what is sent). */
  amount?: number;
  receipt?: string;
  notes?: Record<string, string>;
}

/** The amount to send, checked against what the payment has left: more than remains is exit 2, nothing sent. */
export function refundAmount(baseline: RefundBaseline, amount: number | undefined): number {
  const left = remaining(baseline);
  const money = (v: number) => formatMoney(v, baseline.currency);
  const id = baseline.paymentId;
  const state = `${money(baseline.amount)} paid, ${money(baseline.amountRefunded)} refunded so far`;
  if (left <= 0) throw new UsageError(`${id} has nothing left to refund (${state}): nothing was sent`);
  if (amount !== undefined && amount > left) {
    throw new UsageError(
      `cannot refund ${money(amount)} of ${id}: only ${money(left)} remains (${state}); nothing was sent`,
    );
  }
  return amount ?? left;
}

/**
 * Sends one refund. If its answer is lost or ambiguous, waits for the service to settle, reads the
 * payment back and says what happened: applied (exit 0, the payment read back on stdout), not applied
 * (exit 5: nothing was refunded, safe to run again) or unknown (exit 6 with both figures and the
 * command to check). Never resends.
 */
export async function refundOnce(
  ctx: Context,
  api: ApiClient,
  baseline: RefundBaseline,
  request: RefundRequest,
): Promise<CommandResult> {
  const id = baseline.paymentId;
  const amount = refundAmount(baseline, request.amount);
  const req = api.prepare('refundPayment', {
    params: { id },
    body: { amount, receipt: request.receipt, notes: request.notes },
  });
  let lost: OutcomeUnknownError;
  try {
    return one('refund', await api.execute(req));
  } catch (err) {
    if (!(err instanceof OutcomeUnknownError)) throw err;
    lost = err;
  }
  const money = (v: number) => formatMoney(v, baseline.currency);
  const answer = stripControl(lost.answer);
  const verdict = await reconcileRefund(api, baseline, amount, (ms) => sleep(ms), SETTLE_MS);
  const check = `check with \`payctl payments get ${id}\` (amount_refunded) before sending it again`;
  if (verdict.result === 'applied') {
    ctx.notice(
      `payctl: the refund's answer was lost (${answer}); ` +
        'confirmed by reading the payment back: amount_refunded went from ' +
        `${money(verdict.before)} to ${money(verdict.after)}, so the refund of ${money(amount)} was applied once`,
    );
    const payment = await api.call<Record<string, unknown>>('getPayment', { params: { id } }).catch(() => undefined);
    return one(
      'payment',
      payment ?? {
        id,
        entity: 'payment',
        amount: baseline.amount,
        currency: baseline.currency,
        amount_refunded: verdict.after,
      },
    );
  }
  if (verdict.result === 'not_applied') {
    throw new NetworkError(
      `the refund of ${money(amount)} of ${id} was not applied: ${answer}; read back after ${SETTLE_MS / 1000}s, ` +
        `amount_refunded is unchanged at ${money(verdict.before)}, so nothing was refunded`,
      'it is safe to run the same command again',
    );
  }
  const now =
    verdict.after === undefined
      ? `could not be read back (${stripControl(verdict.reason)})`
      : `is ${money(verdict.after)} now`;
  throw new OutcomeUnknownError(
    `refund of ${money(amount)} of ${id}: outcome unknown (${answer}); ` +
      `amount_refunded was ${money(verdict.before)} before sending and ${now}, ` +
      `where ${money(verdict.before + amount)} would mean it was applied`,
    check,
  );
}
