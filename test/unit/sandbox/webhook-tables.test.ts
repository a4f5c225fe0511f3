import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Store } from '../../../src/sandbox/store';
import { claimDue, enqueue, register } from '../../../src/sandbox/webhook-store';
import { webhookSecret } from '../../../src/sandbox/webhook-tables';

// A database made by an earlier payctl (one registration per URL, no subject on deliveries) keeps
// working: its tables are brought forward, and what it held is still sent.

const dir = mkdtempSync(join(tmpdir(), 'payctl-tables-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OLD = `
CREATE TABLE webhooks (
  id TEXT PRIMARY KEY, kind TEXT NOT NULL, url TEXT NOT NULL, secret TEXT NOT NULL, events TEXT NOT NULL,
  alive_until INTEGER NOT NULL, disabled_at INTEGER, disabled_reason TEXT, created_at INTEGER NOT NULL,
  UNIQUE (kind, url)
);
CREATE TABLE webhook_deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, webhook_id TEXT NOT NULL, event_id TEXT NOT NULL,
  source_event TEXT NOT NULL, event TEXT NOT NULL, body TEXT NOT NULL, signature TEXT NOT NULL,
  state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, first_at INTEGER, next_at INTEGER NOT NULL,
  lease_until INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL
);
INSERT INTO webhooks VALUES ('wh_old', 'listen', 'http://127.0.0.1:9/h', 'whsec_old_one', '[]', 0, NULL, NULL, 1);
INSERT INTO webhook_deliveries (webhook_id, event_id, source_event, event, body, signature, state, next_at, created_at)
  VALUES ('wh_old', 'evt_1', 'evt_1', 'payment.captured', '{}', 'sig', 'retrying', 0, 0);
`;

describe('webhook tables', () => {
  it('an earlier database: two listeners on one URL, the old backlog still sent', () => {
    const store = new Store(join(dir, 'old.db'));
    try {
      store.db.exec(OLD);
      const now = Date.now();
      const url = 'http://127.0.0.1:9/h';
      const a = register(store, { kind: 'listen', url, events: ['payment.*'], aliveUntil: now + 10_000, now: 1 });
      expect(a.id).toBe('wh_old'); // the stopped listener's registration, taken over
      const b = register(store, { kind: 'listen', url, events: ['refund.*'], aliveUntil: now + 10_000, now: 1 });
      expect(b.id).not.toBe(a.id);
      expect(JSON.parse(b.events)).toEqual(['refund.*']);
      const claimed = claimDue(store, 1_000, now, 1_000, 10);
      expect(claimed.map((d) => [d.event_id, d.subject])).toEqual([['evt_1', '']]);
      const out = {
        eventId: 'evt_2',
        sourceEvent: 'evt_2',
        event: 'refund.created',
        subject: 'rfnd_1',
        body: () => '{}',
      };
      expect(enqueue(store, out, 1_000, now)).toBe(1); // to b only: a takes payment.* alone
    } finally {
      store.close();
    }
  });

  it('the secret: made once, kept, a blank one replaced, a given one kept', () => {
    const store = new Store(':memory:');
    try {
      const made = webhookSecret(store);
      expect(made).toMatch(/^whsec_[A-Za-z0-9]{24}$/);
      expect(webhookSecret(store)).toBe(made);
      store.setMeta('webhook_secret', '  ');
      expect(webhookSecret(store).trim()).not.toBe('');
      expect(webhookSecret(store, 'whsec_given_one')).toBe('whsec_given_one');
      expect(webhookSecret(store)).toBe('whsec_given_one');
    } finally {
      store.close();
    }
  });
});
