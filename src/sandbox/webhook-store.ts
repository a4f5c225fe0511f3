import { base62 } from './ids';
import type { Store } from './store';
import { eventMatches, signWebhook } from './webhook-signature';

/**
 * Webhooks and their delivery queue, in tables of their own beside the records. Every sandbox process
 * on the database file shares them: a webhook is live while its owner (a `sandbox start --webhook`, a
 * `webhooks listen`) keeps renewing `alive_until`, and whichever process claims a due delivery sends it.
 * Times: `*_at` of deliveries in sandbox milliseconds, of attempts in sandbox seconds; `alive_until`
 * and `lease_until` in wall-clock milliseconds (they are about processes, not about the service).
 */
const TABLES = `
CREATE TABLE IF NOT EXISTS webhooks (
  id TEXT PRIMARY KEY, kind TEXT NOT NULL, url TEXT NOT NULL, secret TEXT NOT NULL, events TEXT NOT NULL,
  alive_until INTEGER NOT NULL, disabled_at INTEGER, disabled_reason TEXT, created_at INTEGER NOT NULL,
  UNIQUE (kind, url)
);
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, webhook_id TEXT NOT NULL, event_id TEXT NOT NULL,
  source_event TEXT NOT NULL, event TEXT NOT NULL, body TEXT NOT NULL, signature TEXT NOT NULL,
  state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, first_at INTEGER, next_at INTEGER NOT NULL,
  lease_until INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (state, next_at);
CREATE TABLE IF NOT EXISTS webhook_attempts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, delivery INTEGER NOT NULL, webhook_id TEXT NOT NULL,
  event_id TEXT NOT NULL, event TEXT NOT NULL, attempt INTEGER NOT NULL, at INTEGER NOT NULL,
  status INTEGER, latency_ms INTEGER NOT NULL, error TEXT, response TEXT, state TEXT NOT NULL
);
`;

export interface WebhookRow {
  id: string;
  kind: 'start' | 'listen';
  url: string;
  secret: string;
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
}

export interface AttemptRow {
  seq: number;
  delivery: number;
  webhook_id: string;
  event_id: string;
  event: string;
  attempt: number;
  at: number;
  status: number | null;
  latency_ms: number;
  error: string | null;
  /** The first bytes of the handler's answer. */
  response: string | null;
  /** The delivery's state after this attempt. */
  state: 'delivered' | 'retrying' | 'failed';
}

/** One attempt at a delivery as the admin API shows it (`webhooks listen`, `deliveries`). */
export type AttemptView = AttemptRow & { url: string };

const ready = new WeakSet<Store>();

/** The store, with the webhook tables made once per process. */
export function hooks(store: Store): Store {
  if (!ready.has(store)) {
    store.db.exec(TABLES);
    // Made inside a transaction, the tables go if it rolls back: only made outside one do they stay.
    if (!store.db.isTransaction) ready.add(store);
  }
  return store;
}

export function webhookById(store: Store, id: string): WebhookRow | undefined {
  return hooks(store).sql('SELECT * FROM webhooks WHERE id = ?').get(id) as WebhookRow | undefined;
}

export interface Registration {
  kind: WebhookRow['kind'];
  url: string;
  secret: string;
  events: string[];
  aliveUntil: number;
  /** Clears a disabled webhook's state (its owner is back and says so). */
  enable: boolean;
  now: number;
}

/**
 * Registers a webhook, or renews the one of the same kind and URL: its secret from now on (deliveries
 * already signed keep their signature), its event filter, its lease on life.
 */
export function register(store: Store, r: Registration): WebhookRow & { was_disabled: number | null } {
  return hooks(store).tx(() => {
    const old = store.sql('SELECT * FROM webhooks WHERE kind = ? AND url = ?').get(r.kind, r.url) as
      WebhookRow | undefined;
    const events = JSON.stringify(r.events);
    if (old) {
      store
        .sql('UPDATE webhooks SET secret = ?, events = ?, alive_until = ? WHERE id = ?')
        .run(r.secret, events, r.aliveUntil, old.id);
      if (r.enable)
        store.sql('UPDATE webhooks SET disabled_at = NULL, disabled_reason = NULL WHERE id = ?').run(old.id);
    } else {
      store
        .sql(
          'INSERT INTO webhooks (id, kind, url, secret, events, alive_until, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        )
        .run(`wh_${base62(14)}`, r.kind, r.url, r.secret, events, r.aliveUntil, r.now);
    }
    const row = store
      .sql('SELECT * FROM webhooks WHERE kind = ? AND url = ?')
      .get(r.kind, r.url) as unknown as WebhookRow;
    return { ...row, was_disabled: old?.disabled_at ?? null };
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

/** Webhooks an event goes to now: live, enabled, and its name passes their filter. */
function targets(store: Store, event: string, realNow: number): WebhookRow[] {
  const live = hooks(store)
    .sql('SELECT * FROM webhooks WHERE alive_until > ? AND disabled_at IS NULL')
    .all(realNow) as unknown as WebhookRow[];
  return live.filter((w) => eventMatches(JSON.parse(w.events) as string[], event));
}

export interface Outgoing {
  eventId: string;
  sourceEvent: string;
  event: string;
  /** The body's bytes, made only when some webhook takes the event. */
  body: () => string;
}

/**
 * Queues `out` for every webhook it goes to, signed now with that webhook's secret: a retry after the
 * secret is rotated sends the signature it was first sent with. Returns how many were queued.
 */
export function enqueue(store: Store, out: Outgoing, sandboxMs: number, realNow: number): number {
  const insert = hooks(store).sql(
    `INSERT INTO webhook_deliveries (webhook_id, event_id, source_event, event, body, signature, state, next_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
  );
  let queued = 0;
  let body: string | undefined;
  for (const w of targets(store, out.event, realNow)) {
    body ??= out.body();
    insert.run(w.id, out.eventId, out.sourceEvent, out.event, body, signWebhook(body, w.secret), sandboxMs, sandboxMs);
    queued++;
  }
  return queued;
}

/** Claims deliveries due by sandbox time `sandboxMs` for `leaseMs`, so no other process sends them meanwhile. */
export function claimDue(store: Store, sandboxMs: number, realNow: number, leaseMs: number, limit: number) {
  const due = () =>
    hooks(store)
      .sql(
        `SELECT d.*, w.url FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
         WHERE d.state IN ('pending', 'retrying') AND d.next_at <= ? AND d.lease_until <= ?
           AND w.disabled_at IS NULL AND w.alive_until > ? ORDER BY d.seq LIMIT ?`,
      )
      .all(sandboxMs, realNow, realNow, limit) as unknown as Array<DeliveryRow & { url: string }>;
  // Looked for outside a transaction first: most ticks find nothing, and take no write lock.
  if (due().length === 0) return [];
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

/** Makes a webhook's waiting retries due now (its target answers again). Returns how many. */
export function dueNow(store: Store, webhookId: string, sandboxMs: number): number {
  const r = hooks(store)
    .sql(`UPDATE webhook_deliveries SET next_at = ? WHERE webhook_id = ? AND state IN ('pending', 'retrying')`)
    .run(sandboxMs, webhookId);
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
