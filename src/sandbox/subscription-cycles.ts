import type { PaymentMethod, PlanPeriod } from '../contract';
import { SandboxError, notFound } from './errors';
import { recordEvent } from './events';
import { createOrder, recordAttempt } from './orders';
import { capture, newPayment } from './payments';
import type { PaymentRecord, PlanRecord, SubscriptionRecord } from './records';
import { newCustomer } from './customers';
import type { Store } from './store';
import { publicView } from './views';

/** A failed cycle charge is retried daily; after this many failed attempts the subscription is halted. */
export const CHARGE_ATTEMPTS = 4;
const DAY = 86_400;
/** The statuses in which a subscription's cycles are charged as they fall due. */
const CHARGING: SubscriptionRecord['status'][] = ['authenticated', 'active', 'pending'];
/** Subscriptions whose next charge (their `due_at`) has come, in each charging status. */
export const CHARGES_DUE = CHARGING.map((status) => ['subscription', status] as const);

/** The end of the cycle that starts at `t`: calendar months and years, as a billing system counts them. */
export function addPeriod(t: number, period: PlanPeriod, interval: number): number {
  const d = new Date(t * 1000);
  if (period === 'daily') d.setUTCDate(d.getUTCDate() + interval);
  else if (period === 'weekly') d.setUTCDate(d.getUTCDate() + 7 * interval);
  else if (period === 'monthly') d.setUTCMonth(d.getUTCMonth() + interval);
  else d.setUTCFullYear(d.getUTCFullYear() + interval);
  return Math.floor(d.getTime() / 1000);
}

/** When `cycles` cycles of the plan starting at `start` end. */
export function endOfCycles(start: number, plan: PlanRecord, cycles: number): number {
  let end = start;
  for (let i = 0; i < cycles; i++) end = addPeriod(end, plan.period, plan.interval);
  return end;
}

/**
 * One charge attempt for the cycle due: a declined attempt leaves the cycle's order open and its
 * retries are further attempts on that same order, as the real service retries one invoice.
 */
function charge(store: Store, at: number, windowSeconds: number, sub: SubscriptionRecord, fail: boolean) {
  const plan = store.get('plan', sub.plan_id)!;
  const amount = plan.item.amount * (sub.quantity ?? 1);
  const cycle = sub.paid_count + 1;
  const open = sub._cycle_order ? store.get('order', sub._cycle_order) : undefined;
  const order =
    open && open.status !== 'paid'
      ? open
      : createOrder(store, at, {
          amount,
          currency: plan.item.currency,
          receipt: `${sub.id}-${cycle}`,
          notes: { subscription_id: sub.id },
        });
  recordAttempt(store, order);
  sub._cycle_order = fail ? order.id : undefined;
  const customer = sub.customer_id ? store.get('customer', sub.customer_id) : undefined;
  const payment = newPayment(store, at, windowSeconds, order, {
    method: sub.payment_method ?? 'card',
    fail,
    customer_id: sub.customer_id ?? undefined,
    email: customer?.email ?? undefined,
    contact: customer?.contact ?? undefined,
    notes: { subscription_id: sub.id },
    description: `Subscription ${sub.id}, cycle ${cycle}`,
  });
  return fail ? payment : capture(store, at, payment, { amount: payment.amount, currency: payment.currency });
}

/** A declined charge: `pending` and retried daily, `halted` after CHARGE_ATTEMPTS. Says whether retries go on. */
function declineCycle(store: Store, at: number, sub: SubscriptionRecord, payment: PaymentRecord): boolean {
  sub._failed_attempts = (sub._failed_attempts ?? 0) + 1;
  if (sub._failed_attempts >= CHARGE_ATTEMPTS) {
    Object.assign(sub, { status: 'halted', charge_at: null });
    recordEvent(store, at, 'subscription.halted', { subscription: sub, payment });
    return false;
  }
  const first = sub.status !== 'pending';
  Object.assign(sub, { status: 'pending', charge_at: at + DAY });
  if (first) recordEvent(store, at, 'subscription.pending', { subscription: sub, payment });
  return true;
}

/** A paid cycle: the subscription is active for it, or completed with its last one. */
function paidCycle(store: Store, at: number, cycleStart: number, sub: SubscriptionRecord, payment: PaymentRecord) {
  const plan = store.get('plan', sub.plan_id)!;
  const wasActive = sub.status === 'active';
  delete sub._cycle_start;
  delete sub._failed_attempts;
  sub.paid_count += 1;
  sub.remaining_count = sub.total_count - sub.paid_count;
  sub.current_start = cycleStart;
  sub.current_end = addPeriod(cycleStart, plan.period, plan.interval);
  sub.status = 'active';
  sub.charge_at = sub.current_end;
  if (!wasActive) recordEvent(store, at, 'subscription.activated', { subscription: sub });
  const completed = sub.remaining_count === 0;
  if (completed) Object.assign(sub, { status: 'completed', ended_at: sub.current_end, charge_at: null });
  recordEvent(store, at, 'subscription.charged', { subscription: sub, payment });
  if (completed) recordEvent(store, at, 'subscription.completed', { subscription: sub });
}

/**
 * Charges every cycle of this subscription that has fallen due by `now` (a clock advance of a year on
 * a daily plan charges each day up to total_count) and applies a cancel scheduled for cycle end. While
 * the customer's payment method is declined (`sandbox pay SUB_ID --fail`), a due charge fails: the
 * subscription is `pending` and retried daily, and `halted` after CHARGE_ATTEMPTS failures.
 */
export function chargeDueCycles(store: Store, now: number, windowSeconds: number, sub: SubscriptionRecord) {
  while (sub.charge_at !== null && sub.charge_at <= now && CHARGING.includes(sub.status)) {
    const at = sub.charge_at;
    if (sub._cancel_at !== undefined && sub._cancel_at !== null && at >= sub._cancel_at) {
      Object.assign(sub, { status: 'cancelled', ended_at: at, charge_at: null, has_scheduled_changes: false });
      recordEvent(store, at, 'subscription.cancelled', { subscription: sub });
      break;
    }
    const cycleStart = sub._cycle_start ?? at;
    if (sub._failing) {
      const payment = charge(store, at, windowSeconds, sub, true);
      sub._cycle_start = cycleStart;
      if (!declineCycle(store, at, sub, payment)) break;
      continue;
    }
    paidCycle(store, at, cycleStart, sub, charge(store, at, windowSeconds, sub, false));
  }
  store.update(sub, sub.charge_at);
}

/** Every subscription cycle fallen due by `now`, each subscription in its own transaction. */
export function chargeDueSubscriptions(store: Store, now: number, windowSeconds: number): void {
  for (const kind of CHARGES_DUE) {
    for (const sub of store.due(...kind, now)) store.tx(() => chargeDueCycles(store, now, windowSeconds, sub));
  }
}

export interface AuthorizeInput {
  subscription_id: string;
  method?: PaymentMethod;
  fail?: boolean;
}

/** The customer who authorised the subscription at checkout. */
const newSubscriber = (store: Store, now: number) =>
  newCustomer(store, now, { name: 'Sandbox Subscriber', email: 'customer@example.com', contact: '+919876543210' });

/**
 * The customer at checkout for a subscription (`payctl sandbox pay SUB_ID`). A `created` subscription
 * is authorised: `authenticated`, and charged at once when it starts now (`active`). With `fail` the
 * authorisation is declined, or, on a running subscription, the customer's payment method starts
 * declining the charges that fall due. Paying a `pending` or `halted` one charges the missed cycle now.
 */
export function authorize(store: Store, now: number, windowSeconds: number, input: AuthorizeInput) {
  const sub = store.get('subscription', input.subscription_id);
  if (!sub) throw notFound();
  const { status } = sub;
  if (status === 'created') {
    sub.auth_attempts += 1;
    sub.payment_method = input.method ?? 'card';
    if (input.fail) {
      // The authorisation payment is declined: recorded as a failed payment; the subscription stays `created`.
      charge(store, now, windowSeconds, sub, true);
      store.update(sub);
      return sub;
    }
    if (sub.charge_at !== null && sub.charge_at < now) {
      // An immediate start begins when the customer authorises it, not when it was created.
      const end = endOfCycles(now, store.get('plan', sub.plan_id)!, sub.total_count);
      Object.assign(sub, { start_at: now, charge_at: now, end_at: end });
    }
    // A subscription made for a customer stays theirs; else whoever authorises it becomes its customer.
    Object.assign(sub, { customer_id: sub.customer_id ?? newSubscriber(store, now).id, status: 'authenticated' });
    recordEvent(store, now, 'subscription.authenticated', { subscription: publicView(sub) });
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
  chargeDueCycles(store, now, windowSeconds, sub);
  return sub;
}
