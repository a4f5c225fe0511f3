import { amountOf, refundable } from '../contract/rules';
import { INR } from '../contract/vocabulary';
import type { ApiClient } from './client';

/** What a payment allowed just before a refund was sent: the figure an ambiguous answer is judged by. */
export interface RefundBaseline {
  paymentId: string;
  status: string;
  amount: number;
  amountRefunded: number;
  currency: string;
}

export type RefundVerdict =
  /** `amount_refunded` grew by exactly the amount: the refund was applied (once). */
  | { result: 'applied'; before: number; after: number }
  /** Unchanged after the settle delay: not applied; only now may it be sent again. */
  | { result: 'not_applied'; before: number; after: number }
  /** Anything else (grew by another amount, could not be read): a person must look. */
  | { result: 'unknown'; before: number; after: number | undefined; reason: string };

export const remaining = (b: RefundBaseline) => refundable({ amount: b.amount, amount_refunded: b.amountRefunded });

/**
 * A refund is judged by these figures, so one that cannot be read is an error, never 0: a read-back
 * whose amount_refunded is missing would otherwise look like "not applied" and allow a resend.
 */
function figureOf(p: Record<string, unknown>, key: 'amount' | 'amount_refunded'): number {
  const n = amountOf(p[key]);
  if (n === undefined)
    throw new Error(`the payment's ${key} is not an amount (${JSON.stringify(p[key]) ?? 'missing'})`);
  return n;
}

export async function refundBaseline(api: ApiClient, paymentId: string): Promise<RefundBaseline> {
  const p = await api.call<Record<string, unknown>>('getPayment', { params: { id: paymentId } });
  return {
    paymentId,
    status: String(p.status),
    amount: figureOf(p, 'amount'),
    amountRefunded: figureOf(p, 'amount_refunded'),
    currency: String(p.currency ?? INR),
  };
}

/** Pure: what the payment read back says about a refund of `amount` sent on top of `before`. */
export function judgeRefund(before: number, after: number, amount: number): RefundVerdict {
  if (after === before + amount) return { result: 'applied', before, after };
  if (after === before) return { result: 'not_applied', before, after };
  return {
    result: 'unknown',
    before,
    after,
    reason: `amount_refunded went from ${before} to ${after}, not by ${amount}`,
  };
}

/**
 * After an ambiguous answer to a refund, reads the payment back once the service had time to apply
 * it (`settleMs`), and judges by how far `amount_refunded` moved. Never throws: a failed read is an
 * unknown, never a guess.
 */
export async function reconcileRefund(
  api: ApiClient,
  baseline: RefundBaseline,
  amount: number,
  pause: (ms: number) => Promise<unknown>,
  settleMs = 1_000,
): Promise<RefundVerdict> {
  await pause(settleMs);
  try {
    const now = await refundBaseline(api, baseline.paymentId);
    return judgeRefund(baseline.amountRefunded, now.amountRefunded, amount);
  } catch (err) {
    return {
      result: 'unknown',
      before: baseline.amountRefunded,
      after: undefined,
      reason: `could not read the payment back: ${(err as Error).message}`,
    };
  }
}
