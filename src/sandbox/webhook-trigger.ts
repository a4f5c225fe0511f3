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
import { TRIGGERS, checkTrigger } from '../contract/webhooks/catalogue';
import type { TriggerEvent } from '../contract/webhooks/catalogue';

interface Deps {
  store: Store;
  config: SandboxConfig;
  clock: SandboxClock;
}

type Json = Record<string, unknown>;

const defined = (o: Json) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/**
 * Causes `event` the way the service would see it happen: through the same endpoints and checkout the
 * sandbox serves, so every event that follows from it is sent too. Every override is checked first
 * (checkTrigger: the requests the service would refuse included), and the whole change is one
 * transaction: a step that fails anyway leaves nothing made and nothing sent. The events listed are
 * the ones that transaction made, whatever other processes on the database do meanwhile.
 */
export function trigger(deps: Deps, event: string, sets: string[]) {
  const checked = checkTrigger(event, sets);
  if ('refused' in checked) throw new SandboxError(checked.refused, 400, 'set');
  const { bodies } = checked;
  const { store, config, clock } = deps;
  const call = (method: 'POST', path: string, body: Json) =>
    dispatch({ method, path, query: new URLSearchParams(), rawBody: JSON.stringify(defined(body)) }, () => ({
      store,
      config,
      now: clock.now(),
    })) as Json;
  const name = event as TriggerEvent;
  const flow = TRIGGERS[name].flow;

  return store.tx(() => {
    const before = (store.sql('SELECT COALESCE(MAX(seq), 0) AS n FROM records').get() as { n: number }).n;
    const made: Record<string, string> = {};
    if (flow === 'payment' || flow === 'refund') {
      const order = call('POST', '/orders', { ...bodies.order, payment_capture: false });
      made.order_id = String(order.id);
      const input = {
        order_id: made.order_id,
        ...(defined(bodies.payment) as typeof bodies.payment),
        method: (bodies.payment.method ?? 'card') as 'card',
        fail: name === 'payment.failed',
      };
      const payment = checkout(store, clock.now(), config.captureWindowSeconds, input);
      made.payment_id = payment.id;
      if (name !== 'payment.authorized' && name !== 'payment.failed') {
        call('POST', `/payments/${payment.id}/capture`, { amount: payment.amount, currency: payment.currency });
      }
      if (name === 'refund.failed') {
        // The refund stays pending (refund.created only), then fails: never refund.processed.
        const request = bodies.refund as { amount?: number; notes?: Record<string, string> };
        const pending = refundPayment(store, clock.now(), loadPayment(store, payment.id), request, true);
        made.refund_id = pending.id;
        failRefund(store, clock.now(), pending.id);
      } else if (flow === 'refund') {
        made.refund_id = String(call('POST', `/payments/${payment.id}/refund`, bodies.refund).id);
      }
    } else {
      made.plan_id = String(call('POST', '/plans', bodies.plan).id);
      const total_count = name === 'subscription.completed' ? 1 : bodies.subscription.total_count;
      const sub = call('POST', '/subscriptions', { ...bodies.subscription, plan_id: made.plan_id, total_count });
      made.subscription_id = String(sub.id);
      authorize(store, clock.now(), config.captureWindowSeconds, {
        subscription_id: made.subscription_id,
        method: 'card',
      });
      if (name === 'subscription.cancelled') call('POST', `/subscriptions/${made.subscription_id}/cancel`, {});
    }
    const rows = store
      .sql("SELECT data FROM records WHERE entity = 'event' AND seq > ? ORDER BY seq")
      .all(before) as Array<{ data: string }>;
    const events = rows.map((r) => JSON.parse(r.data) as EventRecord).map((e) => ({ id: e.id, event: e.event }));
    return { event, ...made, events };
  });
}
