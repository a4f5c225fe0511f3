import type { SandboxClock } from './clock';
import { wakeOnEvents } from './events';
import type { DeliveryState } from './records';
import type { Store } from './store';
import { claimDue, dueNow, keepAlive, register, saveAttempt, setDisabled } from './webhook-store';
import { hooks } from './webhook-tables';
import type { AttemptRow, DeliveryRow } from './webhook-store';

/** An answer later than this is a failed delivery, as the real service counts it. */
export const TIMEOUT_MS = 5_000;
/** Failed deliveries are retried for this long (sandbox time) from their first attempt; then the webhook is disabled. */
export const RETRY_FOR_MS = 24 * 3_600_000;
/** The first retry's wait; each next one waits twice as long. */
export const FIRST_RETRY_MS = 500;
/** A webhook whose owner stops renewing it within this long is no longer sent anything new. */
export const ALIVE_MS = 10_000;
const LEASE_MS = TIMEOUT_MS * 3;
const TICK_MS = 200;
const MAX_IN_FLIGHT = 16;
/** How much of a handler's answer an attempt keeps, for `webhooks deliveries`. */
const RESPONSE_BYTES = 200;

export interface WebhookSender {
  /** Sends what is due now (after a commit, a flush, a replay) instead of at the next tick. */
  wake(): void;
  /** Stops sending and waits for the attempts under way; waiting retries stay queued in the database. */
  drain(): Promise<void>;
}

async function firstBytes(res: Response): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < RESPONSE_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  await reader.cancel().catch(() => undefined);
  return Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_BYTES);
}

function failure(err: unknown): string {
  const e = err as Error & { cause?: { code?: string } };
  if (e.name === 'TimeoutError') return `no answer within ${TIMEOUT_MS / 1000}s`;
  return e.cause?.code ? `connection failed (${e.cause.code})` : 'connection failed';
}

/**
 * Sends queued deliveries (see webhook-store) in the background, from any process on the database:
 * each POST carries the bytes and the signature made when the event committed, its event id, and the
 * real service's headers; a 2xx within 5 s delivers it; anything else is retried with exponential
 * backoff on the sandbox clock for 24 hours, then the webhook is disabled. `start` is the webhook of
 * `sandbox start --webhook`, live while this sender runs.
 */
export function webhookSender(store: Store, clock: SandboxClock, start?: { url: string }): WebhookSender {
  hooks(store);
  const sandboxMs = () => Date.now() + clock.offset() * 1000;
  let own = start
    ? register(store, {
        kind: 'start',
        url: start.url,
        events: [],
        aliveUntil: Date.now() + ALIVE_MS,
        now: clock.now(),
      })
    : undefined;
  let renewed = Date.now();
  const inFlight = new Set<Promise<void>>();
  /** Claimed (leased) and not yet started, oldest first. */
  const claimed: Array<DeliveryRow & { url: string }> = [];
  let ticking = false;
  let closed = false;

  const noteOnEvent = (row: DeliveryRow, state: DeliveryState, attempt: Record<string, unknown>) => {
    if (row.event_id !== row.source_event) return; // a replay: the event's own deliveries are what it lists
    const current = store.get('event', row.source_event);
    if (!current) return;
    store.update({ ...current, _delivery: state, _attempts: [...(current._attempts ?? []), attempt] } as never);
  };

  /**
   * Attempts finished together are recorded in one transaction (one commit for many, as a backlog
   * drains). A delivery is claimable again, and the next of its subject becomes claimable, only once
   * its attempt is recorded, so the order per subject holds.
   */
  let batch: Array<{ save: () => void; done: (err?: unknown) => void }> = [];
  const flush = () => {
    const saving = batch;
    batch = [];
    try {
      store.tx(() => saving.forEach((b) => b.save()));
      saving.forEach((b) => b.done());
    } catch (err) {
      saving.forEach((b) => b.done(err));
    }
  };
  const persist = (save: () => void) =>
    new Promise<void>((resolve, reject) => {
      if (batch.length === 0) setImmediate(flush);
      batch.push({ save, done: (err) => (err === undefined ? resolve() : reject(err)) });
    });

  const deliver = async (row: DeliveryRow & { url: string }) => {
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Razorpay-Webhook/v1',
      'x-razorpay-signature': row.signature,
      'x-razorpay-event-id': row.event_id,
    };
    const at = clock.now();
    const began = performance.now();
    let status: number | null = null;
    let response: string | null = null;
    let error: string | null = null;
    try {
      const signal = AbortSignal.timeout(TIMEOUT_MS);
      const res = await fetch(row.url, { method: 'POST', headers, body: row.body, signal, redirect: 'manual' });
      status = res.status;
      response = await firstBytes(res);
    } catch (err) {
      error = failure(err);
      status = null; // no answer, or not all of it within the time
    }
    const latency_ms = Math.round(performance.now() - began);
    const now = sandboxMs();
    const firstAt = row.first_at ?? now;
    const ok = status !== null && status >= 200 && status < 300;
    const attempt = row.attempts + 1;
    const givenUp = !ok && now - firstAt >= RETRY_FOR_MS;
    const state: AttemptRow['state'] = ok ? 'delivered' : givenUp ? 'failed' : 'retrying';
    const nextAt = ok || givenUp ? now : now + FIRST_RETRY_MS * 2 ** (attempt - 1);
    await persist(() => {
      const { seq: delivery, webhook_id, event_id, event } = row;
      const fields = { delivery, webhook_id, event_id, event, attempt, at, status, latency_ms, error, response, state };
      saveAttempt(store, { attempt: fields, nextAt, firstAt });
      const summary = { attempt, at, status, latency_ms, ...(error ? { error } : {}) };
      noteOnEvent(row, state, summary);
      if (givenUp) setDisabled(store, webhook_id, clock.now(), 'deliveries failed for 24 hours');
      // A retry that succeeds: the handler is back, so what waits for its backoff goes now, not later.
      if (ok && attempt > 1) dueNow(store, webhook_id, now);
    });
  };

  const tick = () => {
    if (ticking || closed) return;
    ticking = true;
    try {
      if (own && Date.now() - renewed > ALIVE_MS / 4) {
        keepAlive(store, own.id, Date.now() + ALIVE_MS);
        renewed = Date.now();
      }
      // A bounded number under way: a long backlog to a target that is down must not crowd out the API.
      if (inFlight.size >= MAX_IN_FLIGHT) return;
      // Claimed a batch ahead (each claim is a write transaction), started as room frees up.
      if (claimed.length === 0)
        claimed.push(...claimDue(store, sandboxMs(), Date.now(), LEASE_MS, 2 * MAX_IN_FLIGHT - inFlight.size));
      while (inFlight.size < MAX_IN_FLIGHT && claimed.length > 0) {
        const row = claimed.shift()!;
        // Each finished delivery makes room for the next at once: a backlog goes out at the handler's pace.
        const sending = deliver(row)
          .catch(() => undefined) // the store closed under it (sandbox shutting down)
          .finally(() => {
            inFlight.delete(sending);
            tick();
          });
        inFlight.add(sending);
      }
    } catch {
      // busy database (another process writing) or closed store: the next tick tries again
    } finally {
      ticking = false;
    }
  };

  const timer = setInterval(tick, TICK_MS);
  timer.unref();
  wakeOnEvents(store, () => queueMicrotask(tick));
  return {
    wake: () => queueMicrotask(tick),
    async drain() {
      closed = true;
      clearInterval(timer);
      await Promise.allSettled([...inFlight]);
      if (own) keepAlive(store, own.id, 0);
      own = undefined;
    },
  };
}
