import { newId } from './ids';
import type { Row, Store } from './store';

export type EventName = 'transfer.processed' | 'transfer.failed' | 'payout.updated';

/** Records an event (listed by GET /_sandbox/events) and hands it to the webhook sender, if any. */
export type Emit = (event: EventName, entity: 'transfer' | 'payout', record: Row) => void;

export function recordEvent(store: Store, now: number, event: EventName, entity: 'transfer' | 'payout', record: Row): Row {
  const { ...plain } = record;
  for (const k of Object.keys(plain)) if (k.startsWith('_')) delete plain[k];
  return store.insert({
    id: newId('evt'),
    entity: 'event',
    account_id: 'acc_sandbox',
    event,
    contains: [entity],
    payload: { [entity]: { entity: plain } },
    created_at: now,
    _delivery: 'pending',
  });
}

const DELAYS_MS = [0, 500, 1_000, 2_000, 4_000, 8_000];

/**
 * Delivers events to the --webhook URL in the background, retrying failed deliveries with backoff;
 * the API answer never waits for it. Each event's delivery state is kept on its record.
 */
export function webhookSender(store: Store, url: string | undefined) {
  const pending = new Set<Promise<void>>();
  const deliver = async (event: Row) => {
    for (let attempt = 0; attempt < DELAYS_MS.length; attempt++) {
      if (DELAYS_MS[attempt]) await new Promise((r) => setTimeout(r, DELAYS_MS[attempt]).unref());
      try {
        const { _delivery, ...body } = event;
        void _delivery;
        const res = await fetch(url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(5_000) });
        if (res.ok) return mark(event, 'delivered', attempt + 1);
      } catch {
        // network failure: try again after the next delay
      }
    }
    mark(event, 'failed', DELAYS_MS.length);
  };
  const mark = (event: Row, state: string, attempts: number) => {
    try {
      const current = store.get('event', String(event.id));
      if (current) store.update({ ...current, _delivery: state, _attempts: attempts });
    } catch {
      // the store was closed while delivering (sandbox shutting down)
    }
  };
  return {
    send(event: Row) {
      if (!url) return;
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
    const { _delivery, _attempts, ...rest } = e;
    return { ...rest, delivery: _delivery ?? 'pending', attempts: _attempts ?? 0 };
  });
  return { entity: 'collection', count: items.length, items };
}
