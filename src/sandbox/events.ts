import { createHmac } from 'node:crypto';
import { newId } from './ids';
import type { DeliveryState, EventRecord } from './records';
import { publicView } from './views';
import type { Store } from './store';

/** Resources an event carries, by the name the real payload gives them (`payload.payment.entity`). */
export type EventRecords = Partial<
  Record<'payment' | 'order' | 'refund' | 'subscription' | 'transfer' | 'payout' | 'settlement', object>
>;

/** Where a store's committed events go (the webhook sender), and the delivery state they start in. */
export interface EventSink {
  initialDelivery: DeliveryState;
  committed(event: EventRecord): void;
}

const sinks = new WeakMap<Store, EventSink>();

export function sendEventsTo(store: Store, sink: EventSink): void {
  sinks.set(store, sink);
}

/**
 * Records an event shaped like the real service's webhooks (`entity: "event"`, `event`, `contains`,
 * `payload.<resource>.entity`, `created_at`). Called inside the transaction that made the change, so a
 * rolled-back change leaves no event behind; the sink gets the event once that transaction commits.
 */
export function recordEvent(store: Store, now: number, event: string, records: EventRecords): EventRecord {
  const payload: EventRecord['payload'] = {};
  for (const [name, record] of Object.entries(records)) payload[name] = { entity: publicView(record) };
  const sink = sinks.get(store);
  const row = store.insert<EventRecord>({
    id: newId('evt'),
    entity: 'event',
    account_id: 'acc_sandbox',
    event,
    contains: Object.keys(records),
    payload,
    created_at: now,
    _delivery: sink?.initialDelivery ?? 'pending',
    _attempts: [],
  });
  if (sink) store.onCommit(() => sink.committed(row));
  return row;
}

/** The body the real service POSTs: the event without its id (that travels in X-Razorpay-Event-Id). */
export function webhookBody(event: EventRecord): string {
  const { entity, account_id, event: name, contains, payload, created_at } = event;
  return JSON.stringify({ entity, account_id, event: name, contains, payload, created_at });
}

/** X-Razorpay-Signature: hex HMAC-SHA256 of the raw body with the webhook secret. */
export const signWebhook = (body: string, secret: string) => createHmac('sha256', secret).update(body).digest('hex');

export function listEvents(store: Store) {
  const items = store.list('event', { count: 1000, skip: 0 }).map((e) => {
    const attempts = e._attempts ?? [];
    return { ...publicView(e), delivery: e._delivery ?? 'pending', attempts: attempts.length, deliveries: attempts };
  });
  return { entity: 'collection', count: items.length, items };
}
