import type { RouteContext } from './context';
import { SandboxError, notFound } from './errors';
import { recordEvent } from './events';
import { base62, newId, recordId } from './ids';
import type { PlanRecord, SubscriptionRecord } from './records';
import { chargeDueCycles, endOfCycles } from './subscription-cycles';
import { publicView } from './views';

export function createPlan({ store, now, body }: RouteContext<'createPlan'>) {
  const { item } = body;
  return publicView(
    store.tx(() =>
      store.insert<PlanRecord>({
        id: recordId('plan'),
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
          hsn_code: null,
          sac_code: null,
          tax_rate: null,
          tax_id: null,
          tax_group_id: null,
          created_at: now,
          updated_at: now,
        },
        notes: body.notes ?? {},
        created_at: now,
      }),
    ),
  );
}

/**
 * A new subscription waits in `created` until the customer authorises it at checkout (simulated by
 * `payctl sandbox pay SUB_ID`); nothing is charged before that.
 */
export function createSubscription({ store, now, body }: RouteContext<'createSubscription'>) {
  return publicView(
    store.tx(() => {
      const plan = store.get('plan', body.plan_id);
      if (!plan) throw new SandboxError(`The plan ${body.plan_id} does not exist`, 400, 'plan_id');
      if (body.customer_id !== undefined && !store.get('customer', body.customer_id))
        throw new SandboxError('The id provided does not exist', 400, 'customer_id');
      const startAt = body.start_at ?? now;
      if (startAt < now - 60) throw new SandboxError('start_at cannot be in the past', 400, 'start_at');
      const total = body.total_count;
      return store.insert<SubscriptionRecord>({
        id: recordId('subscription'),
        entity: 'subscription',
        plan_id: plan.id,
        customer_id: body.customer_id ?? null,
        status: 'created',
        current_start: null,
        current_end: null,
        ended_at: null,
        quantity: body.quantity ?? 1,
        notes: body.notes ?? {},
        charge_at: startAt,
        start_at: startAt,
        end_at: endOfCycles(startAt, plan, total),
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
        payment_method: null,
        offer_id: null,
        remaining_count: total,
      });
    }),
  );
}

export const getSubscription = ({ store, params }: RouteContext<'getSubscription'>) => {
  const subscription = store.get('subscription', params.id!);
  if (!subscription) throw notFound();
  return publicView(subscription);
};

const ENDED: SubscriptionRecord['status'][] = ['cancelled', 'completed', 'expired'];

export function cancelSubscription({ store, now, config, params, body }: RouteContext<'cancelSubscription'>) {
  return publicView(
    store.tx(() => {
      const sub = store.get('subscription', params.id!);
      if (!sub) throw notFound();
      if (ENDED.includes(sub.status)) {
        throw new SandboxError(`Subscription is not cancellable in ${sub.status} status`, 400, 'id');
      }
      const atCycleEnd = body.cancel_at_cycle_end === 1 && sub.status === 'active' && sub.current_end !== null;
      if (atCycleEnd) {
        // The period already paid for runs out; nothing more is charged.
        sub._cancel_at = sub.current_end;
        sub.has_scheduled_changes = true;
        sub.change_scheduled_at = sub.current_end;
        chargeDueCycles(store, now, config.captureWindowSeconds, sub);
        return sub;
      }
      sub.status = 'cancelled';
      sub.ended_at = now;
      sub.charge_at = null;
      store.update(sub, null);
      recordEvent(store, now, 'subscription.cancelled', { subscription: sub });
      return sub;
    }),
  );
}
