import { createHmac } from 'node:crypto';
import { INR } from '../contract';
import type { RouteContext } from './context';
import { SandboxError, notFound } from './errors';
import { balance, customer, move } from './ledger';
import { recordAttempt } from './orders';
import { capture, newPayment } from './payments';
import type { Store } from './store';
import { collection, pageWindow } from './views';

/** The gateway's signature of a wallet payment: HMAC-SHA256 of `order_id|payment_id` with the key secret. */
const gatewaySignature = (store: Store, orderId: string, paymentId: string) =>
  createHmac('sha256', store.keys().keySecret).update(`${orderId}|${paymentId}`).digest('hex');

/** Pays an order from the customer's wallet: the payment is captured at once and the wallet debited. */
export function walletPayment({ store, now, config, body }: RouteContext<'createWalletPayment'>) {
  return store.tx(() => {
    const payer = customer(store, body.customer_id);
    const order = store.get('order', body.order_id);
    if (!order) throw new SandboxError(`The order ${body.order_id} does not exist`, 400, 'order_id');
    if (order.status === 'paid')
      throw new SandboxError('The order has already been paid; no further payments are permitted', 400, 'order_id');
    if (order.currency !== INR)
      throw new SandboxError('Wallet payments are available for INR orders only', 400, 'order_id');
    if (body.amount !== order.amount_due) {
      throw new SandboxError(
        `The amount (${body.amount}) must equal the amount due on the order (${order.amount_due})`,
        400,
        'amount',
      );
    }
    recordAttempt(store, order);
    const payment = newPayment(store, now, config.captureWindowSeconds, order, {
      method: 'wallet',
      email: body.email,
      contact: body.contact,
      notes: body.notes,
      description: body.description || undefined,
    });
    payment._wallet_customer = payer.id;
    move(store, now, payer, {
      type: 'payment',
      source: payment.id,
      debit: body.amount,
      description: `Payment for order ${order.id}`,
    });
    capture(store, now, payment, { amount: payment.amount, currency: payment.currency });
    return {
      gateway_payment_id: payment.id,
      gateway_order_id: order.id,
      gateway_signature: gatewaySignature(store, order.id, payment.id),
    };
  });
}

export const walletBalance = ({ store, params }: RouteContext<'getWalletBalance'>) => balance(store, params.id!);

export function statement({ store, params, query }: RouteContext<'getWalletStatement'>) {
  if (!store.get('customer', params.id!)) throw notFound();
  return collection(store.list('customer_transaction', { ...pageWindow(query), parent: params.id! }));
}
