import type { SQLInputValue } from 'node:sqlite';
import type { PaymentStatus } from '../contract';
import type { Notes, OrderRecord } from './records';
import type { RouteContext } from './context';
import { SandboxError } from './errors';
import { recordId } from './ids';
import { collection, pageWindow, publicView } from './views';
import type { Store } from './store';

export interface NewOrder {
  amount: number;
  currency: string;
  receipt?: string;
  notes?: Notes;
  /** Capture the order's payment as soon as it is authorized. */
  payment_capture?: boolean;
}

export function createOrder(store: Store, now: number, input: NewOrder): OrderRecord {
  return store.insert<OrderRecord>({
    id: recordId('order'),
    entity: 'order',
    amount: input.amount,
    amount_paid: 0,
    amount_due: input.amount,
    currency: input.currency,
    receipt: input.receipt ?? null,
    offer_id: null,
    status: 'created',
    attempts: 0,
    notes: input.notes ?? {},
    created_at: now,
    _payment_capture: input.payment_capture === true,
  });
}

/** A payment attempt on the order: refused once it is paid. */
export function recordAttempt(store: Store, order: OrderRecord, field = 'order_id'): void {
  if (order.status === 'paid')
    throw new SandboxError('The order has already been paid; no further payments are permitted', 400, field);
  order.attempts += 1;
  order.status = 'attempted';
  store.update(order);
}

/** A capture of `amount` on the order's payment pays the order. */
export function recordPaid(store: Store, order: OrderRecord, amount: number): void {
  order.amount_paid += amount;
  order.amount_due = Math.max(0, order.amount - order.amount_paid);
  order.status = 'paid';
  store.update(order);
}

export const create = ({ store, now, body }: RouteContext<'createOrder'>) =>
  publicView(store.tx(() => createOrder(store, now, body)));

/**
 * As the real service: `authorized=1` lists orders holding a payment that got authorized (it may be
 * captured or refunded since), `authorized=0` the orders holding none.
 */
const EVER_AUTHORIZED: PaymentStatus[] = ['authorized', 'captured', 'refunded'];
const statusList = EVER_AUTHORIZED.map((status) => `'${status}'`).join(', ');
const AUTHORIZED_ORDERS = `id IN (SELECT parent FROM records WHERE entity = 'payment' AND status IN (${statusList}))`;

export function list({ store, query }: RouteContext<'listOrders'>) {
  const where: string[] = [];
  const args: SQLInputValue[] = [];
  if (query.authorized === true) where.push(AUTHORIZED_ORDERS);
  if (query.authorized === false) where.push(`NOT ${AUTHORIZED_ORDERS}`);
  if (query.receipt !== undefined) {
    where.push("json_extract(data, '$.receipt') = ?");
    args.push(query.receipt);
  }
  return collection(store.list('order', { ...pageWindow(query), where: where.join(' AND '), args }));
}
