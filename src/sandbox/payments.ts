import { isCaptured } from '../contract';
import type { PaymentMethod } from '../contract';
import type { RouteContext } from './context';
import { SandboxError, notFound } from './errors';
import { recordEvent } from './events';
import { base62, newId, recordId } from './ids';
import { recordPaid } from './orders';
import type { Notes, OrderRecord, PaymentRecord } from './records';
import { settlementDue } from './settlements';
import { feeOf, feeRate } from './settlements-fees';
import type { Store } from './store';
import { collection, pageWindow, publicView } from './views';

/** How the customer paid: the fields each method fills (the others are null). */
type MethodDetails = Pick<PaymentRecord, 'card_id' | 'bank' | 'wallet' | 'vpa' | 'acquirer_data'>;
const METHOD_DETAILS: Record<PaymentMethod, (rrn: string) => MethodDetails> = {
  card: () => ({
    card_id: newId('card'),
    bank: null,
    wallet: null,
    vpa: null,
    acquirer_data: { auth_code: base62(6).toUpperCase() },
  }),
  netbanking: () => ({
    card_id: null,
    bank: 'HDFC',
    wallet: null,
    vpa: null,
    acquirer_data: { bank_transaction_id: base62(10) },
  }),
  wallet: () => ({
    card_id: null,
    bank: null,
    wallet: 'openwallet',
    vpa: null,
    acquirer_data: { transaction_id: base62(12) },
  }),
  upi: (rrn) => ({
    card_id: null,
    bank: null,
    wallet: null,
    vpa: 'customer@upi',
    acquirer_data: { rrn, upi_transaction_id: base62(12) },
  }),
};

/** The customer's side of a payment attempt. */
export interface PaymentInput {
  method?: PaymentMethod;
  /** The bank declines it. */
  fail?: boolean;
  email?: string;
  contact?: string;
  customer_id?: string;
  notes?: Notes;
  description?: string;
}

/** A payment on the order, authorized (capturable within the window) or failed. */
export function newPayment(
  store: Store,
  now: number,
  windowSeconds: number,
  order: OrderRecord,
  input: PaymentInput,
): PaymentRecord {
  const method = input.method ?? 'card';
  const failed = input.fail === true;
  const payment: PaymentRecord = {
    id: recordId('payment'),
    entity: 'payment',
    amount: order.amount,
    currency: order.currency,
    status: failed ? 'failed' : 'authorized',
    order_id: order.id,
    invoice_id: null,
    international: false,
    method,
    amount_refunded: 0,
    refund_status: null,
    captured: false,
    description: input.description ?? 'Sandbox checkout',
    ...METHOD_DETAILS[method](String(100000000000 + Math.floor(now % 1e11))),
    email: input.email ?? 'customer@example.com',
    contact: input.contact ?? '+919876543210',
    customer_id: input.customer_id ?? null,
    token_id: null,
    notes: input.notes ?? {},
    fee: null,
    tax: null,
    error_code: failed ? 'BAD_REQUEST_ERROR' : null,
    error_description: failed ? 'Payment failed because the bank declined it' : null,
    error_source: failed ? 'bank' : null,
    error_step: failed ? 'payment_authorization' : null,
    error_reason: failed ? 'payment_declined' : null,
    created_at: now,
  };
  store.insert(payment, { parent: order.id, due_at: failed ? undefined : now + windowSeconds });
  recordEvent(store, now, failed ? 'payment.failed' : 'payment.authorized', { payment });
  return payment;
}

export function loadPayment(store: Store, id: string): PaymentRecord {
  const payment = store.get('payment', id);
  if (!payment) throw notFound();
  return payment;
}

/** Captures the whole authorized amount; the order (if any) is paid by it. */
export function capture(
  store: Store,
  now: number,
  payment: PaymentRecord,
  request: { amount: number; currency: string },
): PaymentRecord {
  if (isCaptured(payment)) throw new SandboxError('This payment has already been captured');
  if (payment._auto_refunded)
    throw new SandboxError(
      'This payment was not captured within the capture window and has been refunded automatically',
    );
  if (payment.status !== 'authorized') {
    throw new SandboxError(
      `Only payments which have been authorized and not yet captured can be captured (status: ${payment.status})`,
    );
  }
  if (request.amount !== payment.amount)
    throw new SandboxError(`Capture amount must be equal to the amount authorized (${payment.amount})`, 400, 'amount');
  if (request.currency !== payment.currency)
    throw new SandboxError(`Capture currency must be the payment currency (${payment.currency})`, 400, 'currency');
  payment.status = 'captured';
  payment.captured = true;
  Object.assign(payment, feeOf(payment.amount, feeRate(store)));
  store.update(payment, settlementDue(now));
  const order = payment.order_id ? store.get('order', payment.order_id) : undefined;
  if (order) recordPaid(store, order, payment.amount);
  store.countApplied(payment.id, 'capture', payment.amount);
  recordEvent(store, now, 'payment.captured', { payment });
  if (order) recordEvent(store, now, 'order.paid', { payment, order });
  return payment;
}

export const get = ({ store, params }: RouteContext<'getPayment'>) => publicView(loadPayment(store, params.id!));

export const list = ({ store, query }: RouteContext<'listPayments'>) =>
  collection(store.list('payment', pageWindow(query)));

export const captureRoute = ({ store, now, params, body }: RouteContext<'capturePayment'>) =>
  publicView(store.tx(() => capture(store, now, loadPayment(store, params.id!), body)));
