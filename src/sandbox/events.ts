import { createHmac } from 'node:crypto';
import { newId } from './ids';
import { publicView } from './store';
import type { Row, Store } from './store';

/** Resources an event carries, by the name the real payload gives them (`payload.payment.entity`). */
export type EventRecords = Partial<
  Record<'payment' | 'order' | 'refund' | 'subscription' | 'transfer' | 'payout', Row>
>;

/** Events recorded but not yet handed to the sender, per store: sent once their transaction has committed. */
const queued = new WeakMap<Store, Row[]>();

/**
 * Records an event shaped like the real service's webhooks (`entity: "event"`, `event`, `contains`,
 * `payload.<resource>.entity`, `created_at`). Called inside the transaction that made the change, so a
 * rolled-back change leaves no event behind.
 */
export function emitEvent(store: Store, now: number, event: string, records: EventRecords): Row {
  const contains = Object.keys(records);
  const payload: Row = {};
  for (const [name, record] of Object.entries(records)) payload[name] = { entity: publicView(record!) };
  const row = store.insert({
    id: newId('evt'),
    entity: 'event',
    account_id: 'acc_sandbox',
    event,
    contains,
    payload,
    created_at: now,
    _delivery: 'pending',
    _attempts: [],
  });
  let list = queued.get(store);
  if (!list) queued.set(store, (list = []));
  list.push(row);
  return row;
}

/** The events recorded since the last call (some may have been rolled back since). */
export function takeEmitted(store: Store): Row[] {
  const list = queued.get(store) ?? [];
  queued.delete(store);
  return list;
}

/** The body the real service POSTs: the event without its id (that travels in X-Razorpay-Event-Id). */
export function webhookBody(event: Row): string {
  const { entity, account_id, event: name, contains, payload, created_at } = event;
  return JSON.stringify({ entity, account_id, event: name, contains, payload, created_at });
}

/** X-Razorpay-Signature: hex HMAC-SHA256 of the raw body with the webhook secret. */
export const signWebhook = (body: string, secret: string) => createHmac('sha256', secret).update(body).digest('hex');

export const DELAYS_MS = [0, 500, 1_000, 2_000, 4_000, 8_000];

export interface Attempt {
  attempt: number;
  at: number;
  status: number | null;
  error?: string;
}

/**
 * Delivers events to the --webhook URL in the background, signed, retrying failed deliveries with
 * backoff; the API answer never waits for it. Every retry sends the same bytes with the same event id.
 * Each attempt is kept on the event's record.
 */
export function webhookSender(store: Store, url: string | undefined, secret: string) {
  const pending = new Set<Promise<void>>();
  const record = (event: Row, state: string, attempt?: Attempt) => {
    try {
      const current = store.get('event', String(event.id));
      if (!current) return;
      const attempts = [...((current._attempts as Attempt[] | undefined) ?? []), ...(attempt ? [attempt] : [])];
      store.update({ ...current, _delivery: state, _attempts: attempts });
    } catch {
      // the store was closed while delivering (sandbox shutting down)
    }
  };
  const deliver = async (event: Row) => {
    const body = webhookBody(event);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Razorpay-Webhook/v1',
      'x-razorpay-signature': signWebhook(body, secret),
      'x-razorpay-event-id': String(event.id),
    };
    for (let attempt = 0; attempt < DELAYS_MS.length; attempt++) {
      if (DELAYS_MS[attempt]) await new Promise((r) => setTimeout(r, DELAYS_MS[attempt]).unref());
      const at = Math.floor(Date.now() / 1000);
      try {
        const res = await fetch(url!, { method: 'POST', headers, body, signal: AbortSignal.timeout(5_000) });
        await res.arrayBuffer().catch(() => undefined);
        const last = attempt === DELAYS_MS.length - 1;
        record(event, res.ok ? 'delivered' : last ? 'failed' : 'retrying', {
          attempt: attempt + 1,
          at,
          status: res.status,
        });
        if (res.ok) return;
      } catch (err) {
        const last = attempt === DELAYS_MS.length - 1;
        record(event, last ? 'failed' : 'retrying', {
          attempt: attempt + 1,
          at,
          status: null,
          error: (err as Error).name === 'TimeoutError' ? 'timed out after 5s' : 'connection failed',
        });
      }
    }
  };
  return {
    send(event: Row) {
      if (!url) return record(event, 'no webhook');
      const p = deliver(event).finally(() => pending.delete(p));
      pending.add(p);
    },
    async drain() {
      await Promise.allSettled([...pending]);
    },
  };
}

export function listEvents(store: Store) {
  const items = store.list('event', { count: 1000, skip: 0 }).map((e) => {
    const attempts = (e._attempts as Attempt[] | undefined) ?? [];
    return { ...publicView(e), delivery: e._delivery ?? 'pending', attempts: attempts.length, deliveries: attempts };
  });
  return { entity: 'collection', count: items.length, items };
}
