import { SandboxError, notFound } from './errors';
import { emitEvent } from './events';
import { newId } from './ids';
import { createOrder } from './orders';
import { capture, newPayment } from './payments';
import { publicView } from './store';
import type { Row, Store } from './store';

/** A failed cycle charge is retried daily; after this many failed attempts the subscription is halted. */
export const CHARGE_ATTEMPTS = 4;
const DAY = 86_400;

/** The end of the cycle that starts at `t`: calendar months and years, as a billing system counts them. */
export function addPeriod(t: number, period: string, interval: number): number {
  const d = new Date(t * 1000);
  if (period === 'daily') d.setUTCDate(d.getUTCDate() + interval);
  else if (period === 'weekly') d.setUTCDate(d.getUTCDate() + 7 * interval);
  else if (period === 'monthly') d.setUTCMonth(d.getUTCMonth() + interval);
  else d.setUTCFullYear(d.getUTCFullYear() + interval);
  return Math.floor(d.getTime() / 1000);
}

/**
 * One charge attempt for the cycle due: a declined attempt leaves the cycle's order open and its
 * retries are further attempts on that same order, as the real service retries one invoice.
 */
function charge(store: Store, at: number, windowSeconds: number, sub: Row, plan: Row, fail: boolean): Row {
  const item = plan.item as { amount: number; currency: string };
  const amount = item.amount * Number(sub.quantity ?? 1);
  const cycle = Number(sub.paid_count) + 1;
  const open = sub._cycle_order ? store.get('order', String(sub._cycle_order)) : undefined;
  const order =
    open && open.status !== 'paid'
      ? open
      : createOrder(store, at, {
          amount,
          currency: item.currency,
          receipt: `${String(sub.id)}-${cycle}`,
          notes: { subscription_id: sub.id },
        });
  order.attempts = Number(order.attempts) + 1;
  order.status = 'attempted';
  store.update(order);
  sub._cycle_order = fail ? order.id : undefined;
  const payment = newPayment(store, at, windowSeconds, order, {
    order_id: String(order.id),
    method: String(sub.payment_method ?? 'card'),
    fail,
    customer_id: sub.customer_id ? String(sub.customer_id) : undefined,
    notes: { subscription_id: sub.id },
    description: `Subscription ${String(sub.id)}, cycle ${cycle}`,
  });
  return fail ? payment : capture(store, at, payment, { amount: payment.amount, currency: payment.currency });
}

/**
 * Charges every cycle of this subscription that has fallen due by `now` (a clock advance of a year on
 * a daily plan charges each day up to total_count) and applies a cancel scheduled for cycle end. While
 * the customer's payment method is declined (`sandbox pay SUB_ID --fail`), a due charge fails: the
 * subscription is `pending` and retried daily, and `halted` after CHARGE_ATTEMPTS failures.
 */
export function chargeDue(store: Store, now: number, windowSeconds: number, sub: Row) {
  const plan = store.get('plan', String(sub.plan_id))!;
  const subscription = sub;
  while (
    sub.charge_at !== null &&
    Number(sub.charge_at) <= now &&
    ['authenticated', 'active', 'pending'].includes(String(sub.status))
  ) {
    const at = Number(sub.charge_at);
    if (sub._cancel_at !== undefined && at >= Number(sub._cancel_at)) {
      Object.assign(sub, { status: 'cancelled', ended_at: at, charge_at: null, has_scheduled_changes: false });
      emitEvent(store, at, 'subscription.cancelled', { subscription });
      break;
    }
    const cycleStart = Number(sub._cycle_start ?? at);
    if (sub._failing) {
      const payment = charge(store, at, windowSeconds, sub, plan, true);
      sub._cycle_start = cycleStart;
      sub._failed_attempts = Number(sub._failed_attempts ?? 0) + 1;
      if (Number(sub._failed_attempts) >= CHARGE_ATTEMPTS) {
        Object.assign(sub, { status: 'halted', charge_at: null });
        emitEvent(store, at, 'subscription.halted', { subscription, payment });
        break;
      }
      const first = sub.status !== 'pending';
      Object.assign(sub, { status: 'pending', charge_at: at + DAY });
      if (first) emitEvent(store, at, 'subscription.pending', { subscription, payment });
      continue;
    }
    const payment = charge(store, at, windowSeconds, sub, plan, false);
    const wasActive = sub.status === 'active';
    delete sub._cycle_start;
    delete sub._failed_attempts;
    sub.paid_count = Number(sub.paid_count) + 1;
    sub.remaining_count = Number(sub.total_count) - Number(sub.paid_count);
    sub.current_start = cycleStart;
    sub.current_end = addPeriod(cycleStart, String(plan.period), Number(plan.interval));
    sub.status = 'active';
    sub.charge_at = sub.current_end;
    if (!wasActive) emitEvent(store, at, 'subscription.activated', { subscription });
    if (sub.remaining_count === 0)
      Object.assign(sub, { status: 'completed', ended_at: sub.current_end, charge_at: null });
    emitEvent(store, at, 'subscription.charged', { subscription, payment });
    if (sub.status === 'completed') emitEvent(store, at, 'subscription.completed', { subscription });
  }
  store.update(sub, sub.charge_at === null ? null : Number(sub.charge_at));
}

export function settleSubscriptions(store: Store, now: number, windowSeconds: number): void {
  for (const status of ['authenticated', 'active', 'pending']) {
    const due = store.due('subscription', status, now);
    for (const sub of due) store.tx(() => chargeDue(store, now, windowSeconds, sub));
  }
}

export interface AuthorizeInput {
  subscription_id: string;
  method?: string;
  fail?: boolean;
}

/**
 * The customer at checkout for a subscription (`payctl sandbox pay SUB_ID`). A `created` subscription
 * is authorised: `authenticated`, and charged at once when it starts now (`active`). With `fail` the
 * authorisation is declined, or, on a running subscription, the customer's payment method starts
 * declining the charges that fall due. Paying a `pending` or `halted` one charges the missed cycle now.
 */
export function authorize(store: Store, now: number, windowSeconds: number, input: AuthorizeInput): Row {
  const sub = store.get('subscription', input.subscription_id);
  if (!sub) throw notFound();
  const plan = store.get('plan', String(sub.plan_id))!;
  const status = String(sub.status);
  if (status === 'created') {
    sub.auth_attempts = Number(sub.auth_attempts) + 1;
    sub.payment_method = input.method ?? 'card';
    if (input.fail) {
      // The authorisation payment is declined: recorded as a failed payment; the subscription stays `created`.
      charge(store, now, windowSeconds, sub, plan, true);
      store.update(sub);
      return sub;
    }
    if (Number(sub.charge_at) < now) {
      // An immediate start begins when the customer authorises it, not when it was created.
      let end = now;
      for (let i = 0; i < Number(sub.total_count); i++)
        end = addPeriod(end, String(plan.period), Number(plan.interval));
      Object.assign(sub, { start_at: now, charge_at: now, end_at: end });
    }
    const customer = store.insert({
      id: newId('cust'),
      entity: 'customer',
      name: 'Sandbox Subscriber',
      email: 'customer@example.com',
      contact: '+919876543210',
      gstin: null,
      notes: {},
      created_at: now,
    });
    Object.assign(sub, { customer_id: customer.id, status: 'authenticated' });
    emitEvent(store, now, 'subscription.authenticated', { subscription: publicView(sub) });
  } else if (status === 'authenticated' || status === 'active') {
    if (!input.fail)
      throw new SandboxError(
        `The subscription is already authorised (status ${status}); use --fail to make its charges fail`,
        400,
        'id',
      );
    sub._failing = true;
  } else if (status === 'pending' || status === 'halted') {
    if (input.fail)
      throw new SandboxError(`The subscription's charges are already failing (status ${status})`, 400, 'id');
    delete sub._failing;
    // The customer updated the payment method: the missed cycle is charged now and runs from now.
    delete sub._cycle_start;
    Object.assign(sub, { status: 'pending', charge_at: now });
  } else throw new SandboxError(`Subscription cannot be authorised in ${status} status`, 400, 'id');
  chargeDue(store, now, windowSeconds, sub);
  return sub;
}
