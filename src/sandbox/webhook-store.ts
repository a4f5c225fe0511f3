import type { AttemptView } from '../contract/webhooks/views';
import { eventMatches, signWebhook } from '../contract/webhooks/signature';
import { base62 } from './ids';
import type { Store } from './store';
import { hooks, webhookSecret } from './webhook-tables';

export interface WebhookRow {
  id: string;
  kind: 'start' | 'listen';
  url: string;
  events: string;
  alive_until: number;
  disabled_at: number | null;
  disabled_reason: string | null;
  created_at: number;
}

export interface DeliveryRow {
  seq: number;
  webhook_id: string;
  event_id: string;
  source_event: string;
  event: string;
  body: string;
  signature: string;
  state: 'pending' | 'retrying' | 'delivered' | 'failed';
  attempts: number;
  first_at: number | null;
  next_at: number;
  created_at: number;
  /** The record the event is about (its first entity's id): deliveries of one subject go out in order. */
  subject: string;
}

export type AttemptRow = Omit<AttemptView, 'url'>;

export function webhookById(store: Store, id: string): WebhookRow | undefined {
  return hooks(store).sql('SELECT * FROM webhooks WHERE id = ?').get(id) as WebhookRow | undefined;
}

export interface Registration {
  kind: WebhookRow['kind'];
  url: string;
  events: string[];
  aliveUntil: number;
  now: number;
}

/**
 * Registers a webhook. `sandbox start --webhook URL` renews the one of its URL. A `webhooks listen`
 * is a registration of its own, with its own filter: it never changes a live listener's. It takes over
 * a stopped listener's registration of the same URL (the oldest), so deliveries that waited for that
 * one are sent to it, and enables it if it had been disabled (`was_disabled` says since when).
 */
export function register(store: Store, r: Registration): WebhookRow & { was_disabled: number | null } {
  return hooks(store).tx(() => {
    const live = r.kind === 'start' ? '' : 'AND alive_until <= ?';
    const args = r.kind === 'start' ? [r.kind, r.url] : [r.kind, r.url, Date.now()];
    const old = store
      .sql(`SELECT * FROM webhooks WHERE kind = ? AND url = ? ${live} ORDER BY created_at, id LIMIT 1`)
      .get(...args) as WebhookRow | undefined;
    const events = JSON.stringify(r.events);
    const id = old?.id ?? `wh_${base62(14)}`;
    if (old)
      store
        .sql('UPDATE webhooks SET events = ?, alive_until = ?, disabled_at = NULL, disabled_reason = NULL WHERE id = ?')
        .run(events, r.aliveUntil, id);
    else
      store
        .sql(
          "INSERT INTO webhooks (id, kind, url, secret, events, alive_until, created_at) VALUES (?, ?, ?, '', ?, ?, ?)",
        )
        .run(id, r.kind, r.url, events, r.aliveUntil, r.now);
    return { ...webhookById(store, id)!, was_disabled: old?.disabled_at ?? null };
  });
}

export function keepAlive(store: Store, id: string, until: number): void {
  hooks(store).sql('UPDATE webhooks SET alive_until = ? WHERE id = ?').run(until, id);
}

export function setDisabled(store: Store, id: string, at: number | null, reason: string | null): void {
  hooks(store).sql('UPDATE webhooks SET disabled_at = ?, disabled_reason = ? WHERE id = ?').run(at, reason, id);
}

export function listWebhooks(store: Store): WebhookRow[] {
  return hooks(store).sql('SELECT * FROM webhooks ORDER BY created_at').all() as unknown as WebhookRow[];
}

/**
 * Webhooks an event goes to now: live, and its name passes their filter. A disabled one gets it too,
 * held until it is enabled (claimDue sends nothing to a disabled webhook).
 */
function targets(store: Store, event: string, realNow: number): WebhookRow[] {
  const live = hooks(store).sql('SELECT * FROM webhooks WHERE alive_until > ?').all(realNow) as unknown as WebhookRow[];
  return live.filter((w) => eventMatches(JSON.parse(w.events) as string[], event));
}

export interface Outgoing {
  eventId: string;
  sourceEvent: string;
  event: string;
  /** The id of the record the event is about: a webhook gets one subject's events in the order made. */
  subject: string;
  /** The body's bytes, made only when some webhook takes the event. */
  body: () => string;
}

/**
 * Queues `out` for every webhook it goes to, signed now with the sandbox's webhook secret: a retry
 * after the secret is rotated sends the signature it was first sent with. Returns how many were queued.
 */
export function enqueue(store: Store, out: Outgoing, sandboxMs: number, realNow: number): number {
  const insert = hooks(store).sql(
    `INSERT INTO webhook_deliveries (webhook_id, event_id, source_event, event, body, signature, state, next_at, created_at, subject)
     VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
  );
  let queued = 0;
  let body: string | undefined;
  let signature: string | undefined;
  for (const w of targets(store, out.event, realNow)) {
    body ??= out.body();
    signature ??= signWebhook(body, webhookSecret(store));
    insert.run(w.id, out.eventId, out.sourceEvent, out.event, body, signature, sandboxMs, sandboxMs, out.subject);
    queued++;
  }
  return queued;
}

/**
 * Claims deliveries due by sandbox time `sandboxMs` for `leaseMs`, so no other process sends them
 * meanwhile: the oldest first, and of each subject only the oldest not yet delivered, so a webhook
 * gets one record's events in the order they were made (a later one waits behind an earlier retry).
 */
export function claimDue(store: Store, sandboxMs: number, realNow: number, leaseMs: number, limit: number) {
  const any = hooks(store)
    .sql(`SELECT 1 FROM webhook_deliveries WHERE state IN ('pending', 'retrying') AND next_at <= ? LIMIT 1`)
    .get(sandboxMs);
  // Looked for outside a transaction first: most ticks find nothing, and take no write lock.
  if (!any) return [];
  const due = () =>
    hooks(store)
      .sql(
        `SELECT d.*, w.url FROM webhook_deliveries d INDEXED BY webhook_deliveries_waiting
         JOIN webhooks w ON w.id = d.webhook_id
         WHERE d.state IN ('pending', 'retrying') AND d.next_at <= ? AND d.lease_until <= ?
           AND w.disabled_at IS NULL AND w.alive_until > ?
           AND (d.subject = '' OR NOT EXISTS (
             SELECT 1 FROM webhook_deliveries e WHERE e.webhook_id = d.webhook_id AND e.subject = d.subject
               AND e.seq < d.seq AND e.state IN ('pending', 'retrying')))
         ORDER BY d.seq LIMIT ?`,
      )
      .all(sandboxMs, realNow, realNow, limit) as unknown as Array<DeliveryRow & { url: string }>;
  return store.tx(() => {
    const rows = due();
    const lease = store.sql('UPDATE webhook_deliveries SET lease_until = ? WHERE seq = ?');
    for (const row of rows) lease.run(realNow + leaseMs, row.seq);
    return rows;
  });
}

export interface Outcome {
  attempt: Omit<AttemptRow, 'seq'>;
  nextAt: number;
  firstAt: number;
}

/** Records one attempt and the delivery's state after it. */
export function saveAttempt(store: Store, o: Outcome): void {
  const a = o.attempt;
  hooks(store).tx(() => {
    store
      .sql(
        `INSERT INTO webhook_attempts (delivery, webhook_id, event_id, event, attempt, at, status, latency_ms, error, response, state)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        a.delivery,
        a.webhook_id,
        a.event_id,
        a.event,
        a.attempt,
        a.at,
        a.status,
        a.latency_ms,
        a.error,
        a.response,
        a.state,
      );
    store
      .sql(
        'UPDATE webhook_deliveries SET state = ?, attempts = ?, first_at = ?, next_at = ?, lease_until = 0 WHERE seq = ?',
      )
      .run(a.state, a.attempt, o.firstAt, o.nextAt, a.delivery);
  });
}

/** Makes a webhook's waiting retries due now (its target answers again). Returns how many were not yet due. */
export function dueNow(store: Store, webhookId: string, sandboxMs: number): number {
  const r = hooks(store)
    .sql(
      `UPDATE webhook_deliveries SET next_at = ? WHERE webhook_id = ? AND state IN ('pending', 'retrying') AND next_at > ?`,
    )
    .run(sandboxMs, webhookId, sandboxMs);
  return Number(r.changes);
}

export interface AttemptQuery {
  event?: string;
  webhook?: string;
  after?: number;
  limit?: number;
}

/** Attempts in the order they were made, filtered by event id (original or replayed) and webhook. */
export function attempts(store: Store, q: AttemptQuery): AttemptView[] {
  const where = ['a.seq > ?'];
  const args: Array<string | number> = [q.after ?? 0];
  if (q.event) {
    where.push('(a.event_id = ? OR d.source_event = ?)');
    args.push(q.event, q.event);
  }
  if (q.webhook) {
    where.push('a.webhook_id = ?');
    args.push(q.webhook);
  }
  return hooks(store)
    .sql(
      `SELECT a.*, w.url FROM webhook_attempts a JOIN webhooks w ON w.id = a.webhook_id
       JOIN webhook_deliveries d ON d.seq = a.delivery WHERE ${where.join(' AND ')} ORDER BY a.seq LIMIT ?`,
    )
    .all(...args, q.limit ?? 1000) as unknown as AttemptView[];
}

/** The first delivery made of an event (by its original or a replayed id): its body bytes. */
export function firstDelivery(store: Store, eventId: string): DeliveryRow | undefined {
  return hooks(store)
    .sql('SELECT * FROM webhook_deliveries WHERE event_id = ? OR source_event = ? ORDER BY seq LIMIT 1')
    .get(eventId, eventId) as DeliveryRow | undefined;
}

/** Deliveries waiting for a webhook (pending or retrying). */
export function waiting(store: Store, webhookId: string): number {
  const row = hooks(store)
    .sql(`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = ? AND state IN ('pending', 'retrying')`)
    .get(webhookId) as { n: number };
  return row.n;
}

/** Forgets every delivery and attempt (the sandbox was reset); webhooks stay registered. */
export function forgetDeliveries(store: Store): void {
  hooks(store).db.exec('DELETE FROM webhook_deliveries; DELETE FROM webhook_attempts;');
}
