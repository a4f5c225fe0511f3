import type { SandboxClock } from './clock';
import { checkout } from './checkout';
import type { SandboxConfig } from './context';
import { dispatch } from './dispatch';
import { loadPayment } from './payments';
import { failRefund } from './refund-failure';
import { refund as refundPayment } from './refunds';
import { SandboxError } from './errors';
import type { EventRecord } from './records';
import type { Store } from './store';
import { authorize } from './subscription-cycles';
import { TRIGGERS, checkTrigger } from './webhook-catalogue';
import type { Overrides, TriggerEvent } from './webhook-catalogue';

interface Deps {
  store: Store;
  config: SandboxConfig;
  clock: SandboxClock;
}

type Json = Record<string, unknown>;

/** The overrides under `prefix.notes.`, as a notes object. */
function notes(o: Overrides, prefix: string): Record<string, string> | undefined {
  const entries = Object.entries(o)
    .filter(([k]) => k.startsWith(`${prefix}.notes.`))
    .map(([k, v]) => [k.slice(prefix.length + 7), String(v)]);
  return entries.length ? Object.fromEntries(entries) : undefined;
}

const defined = (o: Json) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/**
 * Causes `event` the way the service would see it happen: through the same endpoints and checkout the
 * sandbox serves, each step its own transaction, so every event that follows from it is sent too.
 */
export function trigger(deps: Deps, event: string, sets: string[]) {
  const checked = checkTrigger(event, sets);
  if ('refused' in checked) throw new SandboxError(checked.refused, 400, 'set');
  const o = checked.overrides;
  const { store, config, clock } = deps;
  const call = (method: 'POST', path: string, body: Json) =>
    dispatch({ method, path, query: new URLSearchParams(), rawBody: JSON.stringify(defined(body)) }, () => ({
      store,
      config,
      now: clock.now(),
    })) as Json;
  const before = (store.sql('SELECT COALESCE(MAX(seq), 0) AS n FROM records').get() as { n: number }).n;
  const made: Record<string, string> = {};
  const name = event as TriggerEvent;
  const flow = TRIGGERS[name].flow;

  if (flow === 'payment' || flow === 'refund') {
    const order = call('POST', '/orders', {
      amount: o['order.amount'] ?? 50_000,
      currency: 'INR',
      receipt: o['order.receipt'],
      notes: notes(o, 'order'),
      payment_capture: false,
    });
    made.order_id = String(order.id);
    const input = {
      order_id: made.order_id,
      method: (o['payment.method'] ?? 'card') as 'card',
      email: o['payment.email'] as string | undefined,
      contact: o['payment.contact'] as string | undefined,
      fail: name === 'payment.failed',
    };
    const payment = store.tx(() => checkout(store, clock.now(), config.captureWindowSeconds, input));
    made.payment_id = payment.id;
    if (name !== 'payment.authorized' && name !== 'payment.failed') {
      call('POST', `/payments/${payment.id}/capture`, { amount: payment.amount, currency: payment.currency });
    }
    if (name === 'refund.failed') {
      // The refund stays pending (refund.created only), then fails: never refund.processed.
      const request = { amount: o['refund.amount'] as number | undefined, notes: notes(o, 'refund') };
      const pending = store.tx(() => refundPayment(store, clock.now(), loadPayment(store, payment.id), request, true));
      made.refund_id = pending.id;
      store.tx(() => failRefund(store, clock.now(), pending.id));
    } else if (flow === 'refund') {
      const refund = call('POST', `/payments/${payment.id}/refund`, {
        amount: o['refund.amount'],
        notes: notes(o, 'refund'),
      });
      made.refund_id = String(refund.id);
    }
  } else {
    const plan = call('POST', '/plans', {
      period: o['plan.period'] ?? 'monthly',
      interval: 1,
      item: { name: o['plan.name'] ?? 'Sandbox plan', amount: o['plan.amount'] ?? 49_900, currency: 'INR' },
    });
    made.plan_id = String(plan.id);
    const sub = call('POST', '/subscriptions', {
      plan_id: made.plan_id,
      total_count: name === 'subscription.completed' ? 1 : (o['subscription.total_count'] ?? 12),
      notes: notes(o, 'subscription'),
    });
    made.subscription_id = String(sub.id);
    const input = { subscription_id: made.subscription_id, method: 'card' as const };
    store.tx(() => authorize(store, clock.now(), config.captureWindowSeconds, input));
    if (name === 'subscription.cancelled') call('POST', `/subscriptions/${made.subscription_id}/cancel`, {});
  }

  const rows = store
    .sql("SELECT data FROM records WHERE entity = 'event' AND seq > ? ORDER BY seq")
    .all(before) as Array<{ data: string }>;
  const events = rows.map((r) => JSON.parse(r.data) as EventRecord).map((e) => ({ id: e.id, event: e.event }));
  return { event, ...made, events };
}
