import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { credentialsOf, sameSecret, secretDigest } from './auth';
import { sandboxClock } from './clock';
import type { SandboxClock } from './clock';
import type { SandboxConfig } from './context';
import { dueWork } from './due-work';
import { DEFAULT_ACCOUNT, base62 } from './ids';
import { feeRate, keepFeeRate } from './settlements-fees';
import { Store } from './store';
import { webhookSecret as keptWebhookSecret } from './webhook-tables';
import { webhookSender } from './webhooks';
import type { WebhookSender } from './webhooks';

/** What makes an account itself rather than its state: a snapshot neither keeps nor restores these. */
export const IDENTITY_META = ['key_id', 'key_secret', 'webhook_secret', 'account_id', 'account_name', 'webhook_url'];

/**
 * One merchant account: its own SQLite database (records, events, webhooks, settlements, counters, the
 * clock offset), so every query a handler makes through `store` sees this account's data and no other.
 */
export interface Account {
  id: string;
  name: string;
  store: Store;
  clock: SandboxClock;
  runDueWork: (now: number) => void;
  webhooks: WebhookSender;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /** Service requests (/v1) made with this account's key, for `sandbox stats`. */
  requests: number;
  /** The folder of this account's snapshots. */
  snapshots: string;
}

export interface AccountsOptions {
  /** The default account's database (a file, or :memory:); the other accounts' live in a folder beside it. */
  db: string;
  config: SandboxConfig;
  feeRate?: number;
  /** `sandbox start --webhook`: the default account's events go there, signed with its webhook secret. */
  webhook?: string;
  webhookSecret?: string;
}

const REGISTRY = `CREATE TABLE IF NOT EXISTS accounts (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, key_id TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL
)`;

/**
 * The accounts of one sandbox. The default account is the database `sandbox start` was given; it also
 * holds the registry (id, name, key id) of the others, each a database file of its own in `<db>.d/`
 * (a temporary folder for :memory:), so every process on the file finds the same accounts.
 */
export class Accounts {
  readonly main: Account;
  private readonly byKeyId = new Map<string, Account>();
  private readonly digests = new WeakMap<Account, Buffer>();
  private readonly dir: string;
  private readonly temporary: boolean;

  constructor(private readonly opts: AccountsOptions) {
    this.temporary = opts.db === ':memory:' || opts.db === '';
    this.dir = this.temporary ? mkdtempSync(join(tmpdir(), 'payctl-sandbox-')) : `${opts.db}.d`;
    mkdirSync(join(this.dir, 'accounts'), { recursive: true, mode: 0o700 });
    const store = new Store(opts.db);
    store.db.exec(REGISTRY);
    keepFeeRate(store, opts.feeRate);
    keptWebhookSecret(store, opts.webhookSecret);
    this.main = this.runtime(store, opts.webhook ? { url: opts.webhook } : undefined);
    this.byKeyId.set(this.main.keyId, this.main);
  }

  /** The account whose key id and secret the request carries, or none (the service's 401). */
  authenticate(req: IncomingMessage): Account | undefined {
    const given = credentialsOf(req);
    const account = given && this.byKey(given.keyId);
    if (!account) return undefined;
    let expected = this.digests.get(account);
    if (!expected) this.digests.set(account, (expected = secretDigest(account.keySecret)));
    return sameSecret(given.keySecret, expected) ? account : undefined;
  }

  /**
   * A new account with its own keys and webhook secret, charging the default account's fee rate. `fill`
   * runs on its database before anyone can use it (a fork loads its snapshot there).
   */
  create(input: { name?: string; webhook?: string }, fill?: (store: Store) => void): Account {
    const id = `acc_${base62(14)}`;
    const store = new Store(this.fileOf(id));
    try {
      store.tx(() => {
        store.setMeta('account_id', id);
        store.setMeta('account_name', input.name ?? id);
        if (input.webhook) store.setMeta('webhook_url', input.webhook);
      });
      keepFeeRate(store, feeRate(this.main.store));
      fill?.(store);
    } catch (err) {
      store.close();
      this.removeFiles(id);
      throw err;
    }
    const account = this.runtime(store);
    const { main } = this;
    main.store.tx(() =>
      main.store
        .sql('INSERT INTO accounts (id, name, key_id, created_at) VALUES (?, ?, ?, ?)')
        .run(id, account.name, account.keyId, main.clock.now()),
    );
    this.byKeyId.set(account.keyId, account);
    return account;
  }

  /** Stops every account's webhook sender (waiting for attempts under way), then closes the databases. */
  async close(): Promise<void> {
    const open = [...this.byKeyId.values()];
    await Promise.all(open.map((a) => a.webhooks.drain()));
    for (const account of open) account.store.close();
    if (this.temporary) rmSync(this.dir, { recursive: true, force: true });
  }

  /** Waits for the webhook deliveries under way, leaving the databases open. */
  async drain(): Promise<void> {
    await Promise.all([...this.byKeyId.values()].map((a) => a.webhooks.drain()));
  }

  private byKey(keyId: string): Account | undefined {
    const known = this.byKeyId.get(keyId);
    if (known) return known;
    // Made by another process on the same database since this one started.
    const row = this.main.store.sql('SELECT id FROM accounts WHERE key_id = ?').get(keyId) as
      { id: string } | undefined;
    if (!row) return undefined;
    const account = this.runtime(new Store(this.fileOf(row.id)));
    this.byKeyId.set(keyId, account);
    return account;
  }

  private fileOf(id: string): string {
    return join(this.dir, 'accounts', `${id}.db`);
  }

  private removeFiles(id: string): void {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${this.fileOf(id)}${suffix}`, { force: true });
  }

  private runtime(store: Store, start?: { url: string }): Account {
    const { keyId, keySecret } = store.keys();
    const webhookSecret = keptWebhookSecret(store);
    const clock = sandboxClock(store);
    const id = store.meta('account_id') ?? DEFAULT_ACCOUNT;
    const url = store.meta('webhook_url');
    return {
      id,
      name: store.meta('account_name') ?? 'default',
      store,
      clock,
      runDueWork: dueWork(store, this.opts.config.captureWindowSeconds),
      webhooks: webhookSender(store, clock, start ?? (url ? { url } : undefined)),
      keyId,
      keySecret,
      webhookSecret,
      requests: 0,
      snapshots: join(this.dir, 'snapshots', id),
    };
  }
}
