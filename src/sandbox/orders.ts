import type { SQLInputValue } from 'node:sqlite';
import type { RouteContext } from './context';
import { SandboxError, notFound } from './errors';
import { newId } from './ids';
import { capture, newPayment } from './payments';
import { publicView } from './store';
import type { Row, Store } from './store';

type Body = Record<string, unknown>;

export function createOrder(store: Store, now: number, body: Body): Row {
  return store.insert({
    id: newId('order'),
    entity: 'order',
    amount: body.amount,
    amount_paid: 0,
    amount_due: body.amount,
    currency: body.currency,
    receipt: body.receipt ?? null,
    offer_id: null,
    status: 'created',
    attempts: 0,
    notes: body.notes ?? {},
    created_at: now,
    _payment_capture: body.payment_capture === true,
  });
}

export const create = ({ store, now, body }: RouteContext) => publicView(store.tx(() => createOrder(store, now, body)));

export function list({ store, query }: RouteContext) {
  const where: string[] = [];
  const args: SQLInputValue[] = [];
  // As the real service: `authorized=1` lists orders holding a payment that got authorized (it may be
  // captured or refunded since), `authorized=0` the orders holding none.
  const authorizedOrders =
    "id IN (SELECT parent FROM records WHERE entity = 'payment' AND status IN ('authorized', 'captured', 'refunded'))";
  if (query.authorized === true) where.push(authorizedOrders);
  if (query.authorized === false) where.push(`NOT ${authorizedOrders}`);
  if (query.receipt !== undefined) {
    where.push("json_extract(data, '$.receipt') = ?");
    args.push(String(query.receipt));
  }
  const items = store
    .list('order', {
      count: (query.count as number) ?? 10,
      skip: (query.skip as number) ?? 0,
      from: query.from as number,
      to: query.to as number,
      where: where.join(' AND '),
      args,
    })
    .map(publicView);
  return { entity: 'collection', count: items.length, items };
}

export interface CheckoutInput {
  order_id: string;
  method?: string;
  fail?: boolean;
  email?: string;
  contact?: string;
  customer_id?: string;
  notes?: Record<string, unknown>;
  description?: string;
}

/** The customer paying at checkout: one attempt on the order, authorized or failed, captured at once if the order asked. */
export function checkout(store: Store, now: number, windowSeconds: number, input: CheckoutInput): Row {
  const order = store.get('order', input.order_id);
  if (!order) throw notFound();
  if (order.status === 'paid')
    throw new SandboxError('The order has already been paid; no further payments are permitted', 400, 'order_id');
  order.attempts = Number(order.attempts) + 1;
  order.status = 'attempted';
  store.update(order);
  const payment = newPayment(store, now, windowSeconds, order, input);
  if (payment.status === 'authorized' && order._payment_capture) {
    return capture(store, now, payment, { amount: payment.amount, currency: payment.currency });
  }
  return payment;
}
