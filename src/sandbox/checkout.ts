import { notFound } from './errors';
import { recordAttempt } from './orders';
import { capture, newPayment } from './payments';
import type { PaymentInput } from './payments';
import type { PaymentRecord } from './records';
import type { Store } from './store';

export type CheckoutInput = Pick<PaymentInput, 'method' | 'fail' | 'email' | 'contact' | 'description' | 'notes'> & {
  order_id: string;
};

/**
 * The customer paying at checkout: one attempt on the order, authorized or failed, captured at once
 * if the order asked.
 */
export function checkout(store: Store, now: number, windowSeconds: number, input: CheckoutInput): PaymentRecord {
  const order = store.get('order', input.order_id);
  if (!order) throw notFound();
  recordAttempt(store, order);
  const payment = newPayment(store, now, windowSeconds, order, input);
  if (payment.status === 'authorized' && order._payment_capture) {
    return capture(store, now, payment, { amount: payment.amount, currency: payment.currency });
  }
  return payment;
}
