import type { RouteContext } from './context';
import { SandboxError, notFound } from './errors';
import { base62, newId } from './ids';
import { createOrder } from './orders';
import { capture, newPayment } from './payments';
import { publicView } from './store';
import type { Row, Store } from './store';

export function createPlan({ store, now, body }: RouteContext) {
  const item = body.item as { name: string; amount: number; currency: string; description?: string };
  return publicView(
    store.tx(() =>
      store.insert({
        id: newId('plan'),
        entity: 'plan',
        interval: body.interval,
        period: body.period,
        item: {
          id: newId('item'),
          active: true,
          name: item.name,
          description: item.description ?? null,
          amount: item.amount,
          unit_amount: item.amount,
          currency: item.currency,
          type: 'plan',
          unit: null,
          tax_inclusive: false,
          created_at: now,
          updated_at: now,
        },
        notes: body.notes ?? {},
        created_at: now,
      }),
    ),
  );
}

/** The end of the cycle that starts at `t`: calendar months and years, as a billing system counts them. */
export function addPeriod(t: number, period: string, interval: number): number {
  const d = new Date(t * 1000);
  if (period === 'daily') d.setUTCDate(d.getUTCDate() + interval);
  else if (period === 'weekly') d.setUTCDate(d.getUTCDate() + 7 * interval);
  else if (period === 'monthly') d.setUTCMonth(d.getUTCMonth() + interval);
  else d.setUTCFullYear(d.getUTCFullYear() + interval);
  return Math.floor(d.getTime() / 1000);
}

export function createSubscription({ store, now, config, body }: RouteContext) {
  return publicView(
    store.tx(() => {
      const plan = store.get('plan', String(body.plan_id));
      if (!plan) throw new SandboxError(`The plan ${String(body.plan_id)} does not exist`, 400, 'plan_id');
      const startAt = (body.start_at as number | undefined) ?? now;
      if (startAt < now - 60) throw new SandboxError('start_at cannot be in the past', 400, 'start_at');
      const total = Number(body.total_count);
      let end = startAt;
      for (let i = 0; i < total; i++) end = addPeriod(end, String(plan.period), Number(plan.interval));
      const sub: Row = {
        id: newId('sub'),
        entity: 'subscription',
        plan_id: plan.id,
        status: 'authenticated',
        current_start: null,
        current_end: null,
        ended_at: null,
        quantity: body.quantity ?? 1,
        notes: body.notes ?? {},
        charge_at: startAt,
        start_at: startAt,
        end_at: end,
        auth_attempts: 0,
        total_count: total,
        paid_count: 0,
        customer_notify: body.customer_notify === undefined ? true : body.customer_notify === 1,
        created_at: now,
        expire_by: null,
        short_url: `https://sandbox.local/s/${base62(9)}`,
        has_scheduled_changes: false,
        change_scheduled_at: null,
        source: 'api',
        offer_id: null,
        remaining_count: total,
      };
      store.insert(sub, { due_at: startAt });
      chargeDue(store, now, config.captureWindowSeconds, sub);
      return sub;
    }),
  );
}

/** One cycle's charge: an order paid by a captured payment, dated when the cycle began. */
function charge(store: Store, at: number, windowSeconds: number, sub: Row, plan: Row) {
  const item = plan.item as { amount: number; currency: string };
  const amount = item.amount * Number(sub.quantity ?? 1);
  const order = createOrder(store, at, { amount, currency: item.currency, receipt: `${String(sub.id)}-${Number(sub.paid_count) + 1}`, notes: { subscription_id: sub.id } });
  const payment = newPayment(store, at, windowSeconds, order, { order_id: String(order.id) });
  payment.notes = { subscription_id: sub.id };
  payment.description = `Subscription ${String(sub.id)}, cycle ${Number(sub.paid_count) + 1}`;
  capture(store, at, payment, { amount: payment.amount, currency: payment.currency });
}

/**
 * Charges every cycle of this subscription that has fallen due by `now` (a clock advance of a year
 * on a daily plan charges each day up to total_count), and applies a cancel scheduled for cycle end.
 */
function chargeDue(store: Store, now: number, windowSeconds: number, sub: Row) {
  const plan = store.get('plan', String(sub.plan_id))!;
  while (sub.charge_at !== null && Number(sub.charge_at) <= now) {
    const at = Number(sub.charge_at);
    if (sub._cancel_at !== undefined && at >= Number(sub._cancel_at)) {
      sub.status = 'cancelled';
      sub.ended_at = at;
      sub.charge_at = null;
      sub.has_scheduled_changes = false;
      break;
    }
    charge(store, at, windowSeconds, sub, plan);
    sub.paid_count = Number(sub.paid_count) + 1;
    sub.remaining_count = Number(sub.total_count) - Number(sub.paid_count);
    sub.current_start = at;
    sub.current_end = addPeriod(at, String(plan.period), Number(plan.interval));
    sub.status = 'active';
    if (sub.remaining_count === 0) {
      sub.status = 'completed';
      sub.ended_at = sub.current_end;
      sub.charge_at = null;
    } else sub.charge_at = sub.current_end;
  }
  store.update(sub, sub.charge_at === null ? null : Number(sub.charge_at));
}

export function settleSubscriptions(store: Store, now: number, windowSeconds: number): void {
  for (const status of ['authenticated', 'active']) {
    const due = store.due('subscription', status, now);
    for (const sub of due) store.tx(() => chargeDue(store, now, windowSeconds, sub));
  }
}

export const getSubscription = ({ store, params }: RouteContext) => {
  const sub = store.get('subscription', params.id!);
  if (!sub) throw notFound();
  return publicView(sub);
};

export function cancelSubscription({ store, now, params, body }: RouteContext) {
  return publicView(
    store.tx(() => {
      const sub = store.get('subscription', params.id!);
      if (!sub) throw notFound();
      if (['cancelled', 'completed', 'expired'].includes(String(sub.status))) {
        throw new SandboxError(`Subscription is not cancellable in ${String(sub.status)} status`, 400, 'id');
      }
      const atCycleEnd = body.cancel_at_cycle_end === 1 && sub.status === 'active' && sub.current_end !== null;
      if (atCycleEnd) {
        // The period already paid for runs out; nothing more is charged.
        sub._cancel_at = sub.current_end;
        sub.has_scheduled_changes = true;
        sub.change_scheduled_at = sub.current_end;
        store.update(sub);
        return sub;
      }
      sub.status = 'cancelled';
      sub.ended_at = now;
      sub.charge_at = null;
      store.update(sub, null);
      return sub;
    }),
  );
}
