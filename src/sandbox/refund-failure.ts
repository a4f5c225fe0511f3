import { SandboxError, notFound } from './errors';
import { recordEvent } from './events';
import type { RefundRecord } from './records';
import type { Store } from './store';

/**
 * A pending refund fails, as a real one does when the bank will not take it: the refund is `failed`,
 * its amount is the merchant's again (the payment's `amount_refunded` goes down by it, `refund_status`
 * and a `refunded` payment's status follow), it never settles, and `refund.failed` is sent with the
 * refund and the payment as the failure left them. A processed refund is final and cannot fail.
 */
export function failRefund(store: Store, now: number, refundId: string): RefundRecord {
  const refund = store.get('refund', refundId);
  if (!refund) throw notFound();
  if (refund.status !== 'pending')
    throw new SandboxError(
      `Only a pending refund can fail (refund ${refund.id} is ${String(refund.status)})`,
      400,
      'id',
    );
  const payment = store.get('payment', refund.payment_id);
  if (!payment) throw new Error(`refund ${refund.id} names payment ${refund.payment_id}, which is not stored`);
  // Money credited to a customer's wallet stays there: such a refund cannot fail.
  if (payment._wallet_customer)
    throw new SandboxError(`Refund ${refund.id} went into a customer wallet and cannot fail`, 400, 'id');
  const failed = store.update<RefundRecord>({ ...refund, status: 'failed' }, null);
  payment.amount_refunded -= refund.amount;
  payment.refund_status = payment.amount_refunded === 0 ? null : 'partial';
  if (payment.status === 'refunded') payment.status = 'captured';
  store.update(payment);
  store.uncountRefund(payment.id, refund.amount);
  recordEvent(store, now, 'refund.failed', { refund: failed, payment });
  return failed;
}
