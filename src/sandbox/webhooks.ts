import { sendEventsTo, signWebhook, webhookBody } from './events';
import type { DeliveryAttempt, DeliveryState, EventRecord } from './records';
import type { Store } from './store';

export const DELAYS_MS = [0, 500, 1_000, 2_000, 4_000, 8_000];

export interface WebhookSender {
  /**
   * Waits for every delivery under way. Retries still waiting for their turn are made at once, and
   * the state after that attempt is the event's last: what is recorded is final, nothing is cut off.
   */
  drain(): Promise<void>;
}

/**
 * Delivers committed events to the --webhook URL in the background, signed, retrying failed
 * deliveries with backoff; the API answer never waits for it. Every retry sends the same bytes with
 * the same event id. Each attempt is kept on the event's record. Without a URL, events are recorded
 * as `no webhook` in the transaction that makes them.
 */
export function webhookSender(store: Store, url: string | undefined, secret: string): WebhookSender {
  const pending = new Set<Promise<void>>();
  const wakers = new Set<() => void>();
  let draining = false;

  const recordAttempt = (event: EventRecord, state: DeliveryState, attempt: DeliveryAttempt) => {
    try {
      const current = store.get('event', event.id);
      if (!current) return;
      store.update({ ...current, _delivery: state, _attempts: [...(current._attempts ?? []), attempt] });
    } catch {
      // the store was closed while delivering (sandbox shutting down)
    }
  };
  /** The backoff before a retry, cut short when the sender drains. */
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      timer.unref();
      wakers.add(wake);
    });

  const deliver = async (event: EventRecord, target: string) => {
    const body = webhookBody(event);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Razorpay-Webhook/v1',
      'x-razorpay-signature': signWebhook(body, secret),
      'x-razorpay-event-id': event.id,
    };
    for (let attempt = 1; attempt <= DELAYS_MS.length; attempt++) {
      const delay = DELAYS_MS[attempt - 1] ?? 0;
      if (delay && !draining) await wait(delay);
      const last = attempt === DELAYS_MS.length || draining;
      const at = Math.floor(Date.now() / 1000);
      try {
        const res = await fetch(target, { method: 'POST', headers, body, signal: AbortSignal.timeout(5_000) });
        await res.arrayBuffer().catch(() => undefined);
        recordAttempt(event, res.ok ? 'delivered' : last ? 'failed' : 'retrying', { attempt, at, status: res.status });
        if (res.ok || last) return;
      } catch (err) {
        const error = (err as Error).name === 'TimeoutError' ? 'timed out after 5s' : 'connection failed';
        recordAttempt(event, last ? 'failed' : 'retrying', { attempt, at, status: null, error });
        if (last) return;
      }
    }
  };

  sendEventsTo(store, {
    initialDelivery: url ? 'pending' : 'no webhook',
    committed(event) {
      if (!url) return;
      const delivery = deliver(event, url).finally(() => pending.delete(delivery));
      pending.add(delivery);
    },
  });
  return {
    async drain() {
      draining = true;
      for (const wake of [...wakers]) wake();
      await Promise.allSettled([...pending]);
    },
  };
}
