import { base62 } from './ids';
import type { Store } from './store';

/**
 * Webhooks and their delivery queue, in tables of their own beside the records. Every sandbox process
 * on the database file shares them: a webhook is live while its owner (a `sandbox start --webhook`, a
 * `webhooks listen`) keeps renewing `alive_until`, and whichever process claims a due delivery sends it.
 * Times: `*_at` of deliveries in sandbox milliseconds, of attempts in sandbox seconds; `alive_until`
 * and `lease_until` in wall-clock milliseconds (they are about processes, not about the service).
 * `webhooks.secret` is no longer read (every delivery is signed with the sandbox's one secret) and is
 * written as the empty string; it stays so that databases made before keep working.
 */
const TABLES = `
CREATE TABLE IF NOT EXISTS webhooks (
  id TEXT PRIMARY KEY, kind TEXT NOT NULL, url TEXT NOT NULL, secret TEXT NOT NULL, events TEXT NOT NULL,
  alive_until INTEGER NOT NULL, disabled_at INTEGER, disabled_reason TEXT, created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, webhook_id TEXT NOT NULL, event_id TEXT NOT NULL,
  source_event TEXT NOT NULL, event TEXT NOT NULL, body TEXT NOT NULL, signature TEXT NOT NULL,
  state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, first_at INTEGER, next_at INTEGER NOT NULL,
  lease_until INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, subject TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (state, next_at);
CREATE TABLE IF NOT EXISTS webhook_attempts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, delivery INTEGER NOT NULL, webhook_id TEXT NOT NULL,
  event_id TEXT NOT NULL, event TEXT NOT NULL, attempt INTEGER NOT NULL, at INTEGER NOT NULL,
  status INTEGER, latency_ms INTEGER NOT NULL, error TEXT, response TEXT, state TEXT NOT NULL
);
`;

/**
 * A database made when one URL had one registration (`UNIQUE (kind, url)`) gets its webhooks table
 * without that constraint: two listeners on one URL are two registrations, each with its own filter.
 */
const UNIQUE_URL_GONE = `
CREATE TABLE webhooks_new (
  id TEXT PRIMARY KEY, kind TEXT NOT NULL, url TEXT NOT NULL, secret TEXT NOT NULL, events TEXT NOT NULL,
  alive_until INTEGER NOT NULL, disabled_at INTEGER, disabled_reason TEXT, created_at INTEGER NOT NULL
);
INSERT INTO webhooks_new SELECT id, kind, url, secret, events, alive_until, disabled_at, disabled_reason, created_at FROM webhooks;
DROP TABLE webhooks;
ALTER TABLE webhooks_new RENAME TO webhooks;
`;

const ready = new WeakSet<Store>();

/** The store, with the webhook tables made once per process. */
export function hooks(store: Store): Store {
  if (!ready.has(store)) {
    store.db.exec(TABLES);
    const table = store.sql("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'webhooks'").get() as
      { sql: string } | undefined;
    if (table && /UNIQUE \(kind, url\)/.test(table.sql)) store.tx(() => store.db.exec(UNIQUE_URL_GONE));
    const columns = store.sql('PRAGMA table_info(webhook_deliveries)').all() as Array<{ name: string }>;
    if (!columns.some((c) => c.name === 'subject'))
      store.db.exec("ALTER TABLE webhook_deliveries ADD COLUMN subject TEXT NOT NULL DEFAULT ''");
    // The subject index finds an earlier delivery of the same record; the waiting index walks what is
    // still to send in order without sorting it (a backlog is claimed a few rows at a time).
    store.db.exec(`
      CREATE INDEX IF NOT EXISTS webhook_deliveries_subject ON webhook_deliveries (webhook_id, subject, seq);
      CREATE INDEX IF NOT EXISTS webhook_deliveries_waiting ON webhook_deliveries (seq)
        WHERE state IN ('pending', 'retrying');`);
    // Made inside a transaction, the tables go if it rolls back: only made outside one do they stay.
    if (!store.db.isTransaction) ready.add(store);
  }
  return store;
}

/**
 * The sandbox's webhook secret: the one `sandbox start` prints and every delivery is signed with.
 * `given` (`sandbox start --webhook-secret`, a rotation) replaces it; else the kept one; else one is
 * made. Kept in the database in the same transaction that reads it, so it is never seen half made,
 * and a blank one (a database edited by hand) counts as none.
 */
export function webhookSecret(store: Store, given?: string): string {
  return store.tx(() => {
    const kept = store.meta('webhook_secret');
    const secret = given ?? (kept?.trim() ? kept : `whsec_${base62(24)}`);
    if (secret !== kept) store.setMeta('webhook_secret', secret);
    return secret;
  });
}
