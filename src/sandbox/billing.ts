import { SUBSCRIPTION_CHANGES } from '../contract/billing-endpoints';
import type { RouteContext } from './context';
import { SandboxError, notFound } from './errors';
import { recordEvent } from './events';
import type { SubscriptionRecord } from './records';
import type { Store } from './store';
import { addPeriod } from './subscription-cycles';
import { collection, pageWindow, publicView } from './views';

/** Plans and subscriptions read back, and a subscription paused and resumed as the real service does. */

export const listPlans = ({ store, query }: RouteContext<'listPlans'>) =>
  collection(store.list('plan', pageWindow(query)));

export function getPlan({ store, params }: RouteContext<'getPlan'>) {
  const plan = store.get('plan', params.id!);
  if (!plan) throw notFound();
  return publicView(plan);
}

export function listSubscriptions({ store, query }: RouteContext<'listSubscriptions'>) {
  const byPlan =
    query.plan_id === undefined ? {} : { where: "json_extract(data, '$.plan_id') = ?", args: [query.plan_id] };
  return collection(store.list('subscription', { ...pageWindow(query), ...byPlan }));
}

function subscription(store: Store, id: string): SubscriptionRecord {
  const sub = store.get('subscription', id);
  if (!sub) throw notFound();
  return sub;
}

/** Only an active subscription pauses; nothing is charged while it is paused (it is due no more). */
export function pauseSubscription({ store, now, params }: RouteContext<'pauseSubscription'>) {
  return publicView(
    store.tx(() => {
      const sub = subscription(store, params.id!);
      if (sub.status !== SUBSCRIPTION_CHANGES.pause.from)
        throw new SandboxError(`Subscription cannot be paused in ${sub.status} status`, 400, 'id');
      Object.assign(sub, { status: SUBSCRIPTION_CHANGES.pause.to, charge_at: null, _paused_at: now });
      store.update(sub, null);
      recordEvent(store, now, 'subscription.paused', { subscription: sub });
      return sub;
    }),
  );
}

/**
 * Only a paused subscription resumes, active again on its original schedule: the next charge is the
 * first cycle boundary from now on, and the cycles that fell while it was paused are never charged.
 */
export function resumeSubscription({ store, now, params }: RouteContext<'resumeSubscription'>) {
  return publicView(
    store.tx(() => {
      const sub = subscription(store, params.id!);
      if (sub.status !== SUBSCRIPTION_CHANGES.resume.from)
        throw new SandboxError(`Subscription cannot be resumed in ${sub.status} status`, 400, 'id');
      const plan = store.get('plan', sub.plan_id)!;
      let next = sub.current_end ?? now;
      let skipped = 0;
      while (next < now) {
        next = addPeriod(next, plan.period, plan.interval);
        skipped++;
      }
      let end = sub.end_at;
      for (let i = 0; i < skipped; i++) end = addPeriod(end, plan.period, plan.interval);
      Object.assign(sub, { status: SUBSCRIPTION_CHANGES.resume.to, charge_at: next, end_at: end });
      delete sub._paused_at;
      store.update(sub, next);
      recordEvent(store, now, 'subscription.resumed', { subscription: sub });
      return sub;
    }),
  );
}

export const billingRoutes = {
  listPlans,
  getPlan,
  listSubscriptions,
  pauseSubscription,
  resumeSubscription,
};
