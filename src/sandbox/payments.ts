import type { RouteContext } from './context';
import { SandboxError, notFound } from './errors';
import { emitEvent } from './events';
import { base62, newId } from './ids';
import { move } from './ledger';
import type { CheckoutInput } from './orders';
import { publicView } from './store';
import type { Row, Store } from './store';

const METHOD_DETAILS: Record<string, (n: string) => Row> = {
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
  upi: (n) => ({
    card_id: null,
    bank: null,
    wallet: null,
    vpa: 'customer@upi',
    acquirer_data: { rrn: n, upi_transaction_id: base62(12) },
  }),
};

export function newPayment(store: Store, now: number, windowSeconds: number, order: Row, input: CheckoutInput): Row {
  const method = input.method ?? 'card';
  const failed = input.fail === true;
  const payment: Row = {
    id: newId('pay'),
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
    ...METHOD_DETAILS[method]!(String(100000000000 + Math.floor(now % 1e11))),
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
  store.insert(payment, { parent: String(order.id), due_at: failed ? undefined : now + windowSeconds });
  emitEvent(store, now, failed ? 'payment.failed' : 'payment.authorized', { payment });
  return payment;
}

const orderOf = (store: Store, payment: Row) =>
  payment.order_id ? store.get('order', String(payment.order_id)) : undefined;

function load(store: Store, id: string): Row {
  const payment = store.get('payment', id);
  if (!payment) throw notFound();
  return payment;
}

export function capture(store: Store, now: number, payment: Row, body: { amount: unknown; currency: unknown }): Row {
  if (payment.status === 'captured' || (payment.captured === true && payment.status === 'refunded')) {
    throw new SandboxError('This payment has already been captured');
  }
  if (payment._auto_refunded)
    throw new SandboxError(
      'This payment was not captured within the capture window and has been refunded automatically',
    );
  if (payment.status !== 'authorized') {
    throw new SandboxError(
      `Only payments which have been authorized and not yet captured can be captured (status: ${String(payment.status)})`,
    );
  }
  if (body.amount !== payment.amount)
    throw new SandboxError(
      `Capture amount must be equal to the amount authorized (${String(payment.amount)})`,
      400,
      'amount',
    );
  if (body.currency !== payment.currency)
    throw new SandboxError(
      `Capture currency must be the payment currency (${String(payment.currency)})`,
      400,
      'currency',
    );
  const amount = Number(payment.amount);
  payment.status = 'captured';
  payment.captured = true;
  payment.fee = Math.round(amount * 0.02);
  payment.tax = Math.round(Number(payment.fee) * 0.18);
  store.update(payment, null);
  const order = orderOf(store, payment);
  if (order) {
    order.amount_paid = Number(order.amount_paid) + amount;
    order.amount_due = Math.max(0, Number(order.amount) - Number(order.amount_paid));
    order.status = 'paid';
    store.update(order);
  }
  store.countApplied(String(payment.id), 'capture', amount);
  emitEvent(store, now, 'payment.captured', { payment });
  if (order) emitEvent(store, now, 'order.paid', { payment, order });
  return payment;
}

function newRefund(store: Store, now: number, payment: Row, amount: number, body: Row): Row {
  return store.insert(
    {
      id: newId('rfnd'),
      entity: 'refund',
      amount,
      currency: payment.currency,
      payment_id: payment.id,
      notes: body.notes ?? {},
      receipt: body.receipt ?? null,
      acquirer_data: { arn: `ARN${base62(12).toUpperCase()}` },
      created_at: now,
      batch_id: null,
      status: 'processed',
      speed_processed: 'normal',
      speed_requested: body.speed ?? 'normal',
    },
    { parent: String(payment.id) },
  );
}

/** Sandbox refunds are processed at once: both events of the real service's refund, one after the other. */
function refundEvents(store: Store, now: number, refund: Row, payment: Row) {
  emitEvent(store, now, 'refund.created', { refund, payment });
  emitEvent(store, now, 'refund.processed', { refund, payment });
}

export function refund(store: Store, now: number, payment: Row, body: Row): Row {
  if (payment.status !== 'captured' && !(payment.status === 'refunded' && payment.captured === true)) {
    throw new SandboxError(`Only captured payments can be refunded (status: ${String(payment.status)})`);
  }
  const remaining = Number(payment.amount) - Number(payment.amount_refunded);
  if (remaining <= 0) throw new SandboxError('The payment has been fully refunded already');
  const amount = body.amount === undefined ? remaining : Number(body.amount);
  if (amount > remaining) {
    throw new SandboxError(
      `The refund amount provided (${amount}) is greater than the amount remaining to be refunded (${remaining})`,
      400,
      'amount',
    );
  }
  const record = newRefund(store, now, payment, amount, body);
  payment.amount_refunded = Number(payment.amount_refunded) + amount;
  const full = payment.amount_refunded === payment.amount;
  payment.refund_status = full ? 'full' : 'partial';
  if (full) payment.status = 'refunded';
  store.update(payment);
  store.countApplied(String(payment.id), 'refund', amount);
  refundEvents(store, now, record, payment);
  if (payment._wallet_customer) {
    // A wallet payment's refund goes back into the wallet it came from.
    const c = store.get('customer', String(payment._wallet_customer));
    if (c)
      move(store, now, c, {
        type: 'refund',
        source: String(record.id),
        credit: amount,
        description: `Refund of payment ${String(payment.id)}`,
      });
  }
  return record;
}

/** Authorized payments left past the capture window are refunded automatically (spec 3.2). */
export function settleDue(store: Store, now: number): void {
  const due = store.due('payment', 'authorized', now);
  if (!due.length) return;
  store.tx(() => {
    for (const payment of due) {
      payment.status = 'refunded';
      payment.amount_refunded = payment.amount;
      payment.refund_status = 'full';
      payment._auto_refunded = true;
      const record = newRefund(store, now, payment, Number(payment.amount), {
        notes: { reason: 'not captured within the capture window' },
      });
      store.update(payment, null);
      refundEvents(store, now, record, payment);
    }
  });
}

export const get = ({ store, params }: RouteContext) => publicView(load(store, params.id!));

export function list({ store, query }: RouteContext) {
  const items = store
    .list('payment', {
      count: (query.count as number) ?? 10,
      skip: (query.skip as number) ?? 0,
      from: query.from as number,
      to: query.to as number,
    })
    .map(publicView);
  return { entity: 'collection', count: items.length, items };
}

export const captureRoute = ({ store, now, params, body }: RouteContext) =>
  publicView(
    store.tx(() => capture(store, now, load(store, params.id!), body as { amount: unknown; currency: unknown })),
  );

export const refundRoute = ({ store, now, params, body }: RouteContext) =>
  publicView(store.tx(() => refund(store, now, load(store, params.id!), body)));
