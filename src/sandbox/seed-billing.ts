import type { SandboxConfig } from './context';
import { dispatch } from './dispatch';
import type { Store } from './store';
import { authorize, chargeDueSubscriptions } from './subscription-cycles';

const DAY = 86_400;

/** Every subscription status the service has, in the order a subscription can reach them. */
export const SEEDED_STATES = ['created', 'authenticated', 'active', 'paused', 'halted', 'cancelled', 'completed'];

/**
 * Plans, and subscriptions of `customers` in every status the real service has, each reached the way
 * the service reaches it: through the same endpoints and checkout, with a history in the past where
 * the status takes time (a completed one paid its three daily cycles; a halted one was declined four
 * days running). Returns the plans and subscriptions made.
 */
export function seedBilling(store: Store, now: number, config: SandboxConfig, customers: string[]) {
  const call = (at: number, method: 'POST', path: string, body: object) =>
    dispatch({ method, path, query: new URLSearchParams(), rawBody: JSON.stringify(body) }, () => ({
      store,
      config,
      now: at,
    })) as { id: string };
  const plan = (period: string, name: string, amount: number) =>
    call(now - 6 * DAY, 'POST', '/plans', { period, interval: 1, item: { name, amount, currency: 'INR' } }).id;
  const gold = plan('monthly', 'Gold', 49_900);
  const daily = plan('daily', 'Daily Essentials', 4_900);
  const yearly = plan('yearly', 'Annual Pro', 499_900);
  const pay = (at: number, id: string, fail = false) =>
    authorize(store, at, config.captureWindowSeconds, {
      subscription_id: id,
      method: 'upi',
      ...(fail ? { fail } : {}),
    });
  const subscribe = (at: number, plan_id: string, customer: number, total_count: number, start_at?: number) =>
    call(at, 'POST', '/subscriptions', {
      plan_id,
      customer_id: customers[customer % customers.length],
      total_count,
      ...(start_at === undefined ? {} : { start_at }),
      notes: { seeded: 'true' },
    }).id;

  // Histories are whole days back, and every capture in them at least three days before now: its T+2
  // settlement is due already, never within moments of the seed (where a test's reads could race it).
  const created = subscribe(now, gold, 7, 12);
  const authenticated = subscribe(now, yearly, 6, 3, now + 7 * DAY);
  pay(now, authenticated);
  const active = subscribe(now, gold, 3, 12);
  pay(now, active);
  const paused = subscribe(now - 3 * DAY, gold, 5, 12);
  pay(now - 3 * DAY, paused);
  call(now - DAY, 'POST', `/subscriptions/${paused}/pause`, { pause_at: 'now' });
  const halted = subscribe(now - 6 * DAY, daily, 4, 30);
  pay(now - 6 * DAY, halted);
  pay(now - 6 * DAY, halted, true); // the customer's card starts declining: four daily retries, then halted
  const cancelled = subscribe(now - 3 * DAY, gold, 1, 12);
  pay(now - 3 * DAY, cancelled);
  call(now - 2 * DAY, 'POST', `/subscriptions/${cancelled}/cancel`, { cancel_at_cycle_end: 0 });
  const completed = subscribe(now - 5 * DAY, daily, 0, 3);
  pay(now - 5 * DAY, completed);
  chargeDueSubscriptions(store, now, config.captureWindowSeconds);
  return {
    plan_ids: [gold, daily, yearly],
    subscription_ids: [created, authenticated, active, paused, halted, cancelled, completed],
  };
}
