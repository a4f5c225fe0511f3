import { DEFAULT_ACCOUNT, newId } from './ids';
import type { EventRecord } from './records';
import { publicView } from './views';
import type { Store } from './store';
import { enqueue } from './webhook-store';
import { encodeLikeService } from '../contract/webhooks/signature';

/** Resources an event carries, by the name the real payload gives them (`payload.payment.entity`). */
export type EventRecords = Partial<
  Record<'payment' | 'order' | 'refund' | 'subscription' | 'transfer' | 'payout' | 'settlement', object>
>;

/** What wakes the webhook sender of a store once an event's transaction commits. */
const wakers = new WeakMap<Store, () => void>();

export function wakeOnEvents(store: Store, wake: () => void): void {
  wakers.set(store, wake);
}

/**
 * Records an event shaped like the real service's webhooks (`entity: "event"`, `account_id`, `event`,
 * `contains`, `payload.<resource>.entity`, `created_at`) and queues its delivery to every live webhook,
 * its body encoded and signed now: a snapshot of the records as this change left them. Called inside
 * the transaction that made the change, so a rolled-back change leaves no event and no delivery behind;
 * the sender is woken once that transaction commits, when a delivery was queued.
 */
export function recordEvent(store: Store, now: number, event: string, records: EventRecords): EventRecord {
  const payload: EventRecord['payload'] = {};
  for (const [name, record] of Object.entries(records))
    payload[name] = { entity: publicView(record as Record<string, unknown>) };
  const row: EventRecord = {
    id: newId('evt'),
    entity: 'event',
    account_id: store.meta('account_id') ?? DEFAULT_ACCOUNT,
    event,
    contains: Object.keys(records),
    payload,
    created_at: now,
    _delivery: 'no webhook',
    _attempts: [],
  };
  const out = { eventId: row.id, sourceEvent: row.id, event, subject: subjectOf(row), body: () => webhookBody(row) };
  // Only an event some webhook takes has a delivery to send: the others wake no sender, which would
  // read the clock and the queue for nothing.
  const queued = enqueue(store, out, now * 1000, Date.now()) > 0;
  if (queued) row._delivery = 'pending';
  store.insert<EventRecord>(row);
  const wake = wakers.get(store);
  if (queued && wake) store.onCommit(wake);
  return row;
}

/** The id of the record an event is about: its first entity's (the payment of `order.paid`, the refund of `refund.*`). */
export function subjectOf(event: EventRecord): string {
  const first = event.payload[event.contains[0] ?? ''] as { entity?: { id?: unknown } } | undefined;
  return typeof first?.entity?.id === 'string' ? first.entity.id : '';
}

/** The body the real service POSTs, in its bytes: the event without its id (that is X-Razorpay-Event-Id). */
export function webhookBody(event: EventRecord): string {
  const { entity, account_id, event: name, contains, payload, created_at } = event;
  return encodeLikeService({ entity, account_id, event: name, contains, payload, created_at });
}

export function listEvents(store: Store) {
  const items = store.list('event', { count: 1000, skip: 0 }).map((e) => {
    const attempts = e._attempts ?? [];
    return { ...publicView(e), delivery: e._delivery ?? 'pending', attempts: attempts.length, deliveries: attempts };
  });
  return { entity: 'collection', count: items.length, items };
}
