import { chmodSync, closeSync, openSync } from 'node:fs';
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { base62 } from './ids';

export type Row = Record<string, unknown>;

type Sqlite = typeof import('node:sqlite');

/**
 * node:sqlite is built into Node (nothing compiles on install). Node 22 announces it with an
 * ExperimentalWarning when first loaded; that line is for developers of Node, not for payctl's users,
 * so it is held back while the module loads and every other warning passes through.
 */
function loadSqlite(): Sqlite {
  const emit = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/SQLite is an experimental feature/.test(text)) return;
    return (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return process.getBuiltinModule('node:sqlite') as Sqlite;
  } finally {
    process.emitWarning = emit;
  }
}

/** The database holds the sandbox keys and payment data: readable by its owner only. */
function ownerOnly(file: string): void {
  if (file === ':memory:' || file === '') return;
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  entity TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  parent TEXT,
  status TEXT,
  due_at INTEGER,
  data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS records_list ON records (entity, created_at DESC, seq DESC);
DROP INDEX IF EXISTS records_parent;
CREATE INDEX IF NOT EXISTS records_parent_list ON records (entity, parent, created_at DESC, seq DESC);
CREATE INDEX IF NOT EXISTS records_due ON records (entity, status, due_at);
CREATE TABLE IF NOT EXISTS applied (payment_id TEXT NOT NULL, kind TEXT NOT NULL, count INTEGER NOT NULL, amount INTEGER NOT NULL, PRIMARY KEY (payment_id, kind));
`;

/**
 * Every resource lives in one table: indexed columns for listing and due-time processing, the record
 * itself as JSON. Keys starting with `_` are the sandbox's own bookkeeping and never leave it.
 */
export class Store {
  readonly db: DatabaseSync;
  /**
   * Where the page ending at each offset stopped, so walking page by page reads on from there instead
   * of stepping over every earlier row again. Any write (here, or by another process on the same
   * database file, which SQLite's data_version reveals) makes earlier cursors unusable, and pages fall
   * back to OFFSET, so the answers are exactly what offset paging gives.
   */
  private readonly cursors = new Map<string, { created_at: number; seq: number }>();
  private generation = 0;
  private depth = 0;
  /** Writes this process made through the store (other processes show in data_version). */
  get writes(): string {
    return `${this.generation}.${this.dataVersion()}`;
  }
  private readonly statements = new Map<string, StatementSync>();

  constructor(file: string) {
    ownerOnly(file);
    const { DatabaseSync } = loadSqlite();
    this.db = new DatabaseSync(file, { timeout: 5000 });
    this.db.exec('PRAGMA journal_mode = WAL');
    // WAL + NORMAL: a committed transaction survives the process being killed (it is in the WAL);
    // only an OS crash could lose the newest ones.
    this.db.exec('PRAGMA synchronous = NORMAL');
    this.db.exec(SCHEMA);
  }

  /** Prepared once per SQL text: node:sqlite compiles a statement on every prepare(). */
  sql(text: string): StatementSync {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /**
   * One write transaction, taken up front (IMMEDIATE) so two processes on the file queue instead of
   * failing at their first write. A nested call joins the outer transaction.
   */
  private dataVersion(): number {
    return (this.sql('PRAGMA data_version').get() as { data_version: number }).data_version;
  }

  tx<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    this.db.exec('BEGIN IMMEDIATE');
    this.depth++;
    try {
      const result = fn();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw error;
    } finally {
      this.depth--;
    }
  }

  meta(key: string): string | undefined {
    return (this.sql('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }

  setMeta(key: string, value: string): void {
    this.sql('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(
      key,
      value,
    );
  }

  /** The keys of this database, made once and kept, so every process on the file agrees. */
  keys(): { keyId: string; keySecret: string } {
    return this.tx(() => {
      let keyId = this.meta('key_id');
      let keySecret = this.meta('key_secret');
      if (!keyId || !keySecret) {
        keyId = `rzp_test_${base62(14)}`;
        keySecret = base62(24);
        this.setMeta('key_id', keyId);
        this.setMeta('key_secret', keySecret);
      }
      return { keyId, keySecret };
    });
  }

  /** The webhook signing secret: the one given (kept from then on), else the one kept, else a new one. */
  webhookSecret(given?: string): string {
    return this.tx(() => {
      const secret = given ?? this.meta('webhook_secret') ?? `whsec_${base62(24)}`;
      this.setMeta('webhook_secret', secret);
      return secret;
    });
  }

  get(entity: string, id: string): Row | undefined {
    const row = this.sql('SELECT data FROM records WHERE entity = ? AND id = ?').get(entity, id) as
      { data: string } | undefined;
    return row ? (JSON.parse(row.data) as Row) : undefined;
  }

  insert(record: Row, opts: { parent?: string; due_at?: number } = {}): Row {
    this.generation++;
    this.sql(
      'INSERT INTO records (id, entity, created_at, parent, status, due_at, data) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(
      record.id as string,
      record.entity as string,
      record.created_at as number,
      opts.parent ?? null,
      (record.status as string) ?? null,
      opts.due_at ?? null,
      JSON.stringify(record),
    );
    return record;
  }

  update(record: Row, due_at?: number | null): Row {
    this.generation++; // a list may filter on status
    const sets = due_at === undefined ? 'status = ?, data = ?' : 'status = ?, data = ?, due_at = ?';
    const status = (record.status as string | undefined) ?? null;
    const args: SQLInputValue[] =
      due_at === undefined ? [status, JSON.stringify(record)] : [status, JSON.stringify(record), due_at];
    this.sql(`UPDATE records SET ${sets} WHERE entity = ? AND id = ?`).run(
      ...args,
      record.entity as string,
      record.id as string,
    );
    return record;
  }

  list(
    entity: string,
    q: { count: number; skip: number; from?: number; to?: number; where?: string; args?: SQLInputValue[] },
  ): Row[] {
    const args = [entity, q.from ?? 0, q.to ?? Number.MAX_SAFE_INTEGER, ...(q.args ?? [])];
    const filter = `records WHERE entity = ? AND created_at >= ? AND created_at <= ? ${q.where ? `AND ${q.where}` : ''}`;
    const version = this.writes;
    const key = (skip: number) => `${version}\0${filter}\0${JSON.stringify(args)}\0${skip}`;
    const cursor = q.skip > 0 ? this.cursors.get(key(q.skip)) : undefined;
    const rows = (
      cursor
        ? this.sql(
            `SELECT seq, created_at, data FROM ${filter} AND (created_at < ? OR (created_at = ? AND seq < ?)) ORDER BY created_at DESC, seq DESC LIMIT ?`,
          ).all(...args, cursor.created_at, cursor.created_at, cursor.seq, q.count)
        : this.sql(
            `SELECT seq, created_at, data FROM ${filter} ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?`,
          ).all(...args, q.count, q.skip)
    ) as Array<{ seq: number; created_at: number; data: string }>;
    const last = rows.at(-1);
    if (last) {
      if (this.cursors.size > 1000) this.cursors.clear();
      this.cursors.set(key(q.skip + rows.length), { created_at: last.created_at, seq: last.seq });
    }
    return rows.map((r) => JSON.parse(r.data) as Row);
  }

  due(entity: string, status: string, now: number): Row[] {
    const rows = this.sql(
      'SELECT data FROM records WHERE entity = ? AND status = ? AND due_at <= ? ORDER BY due_at, seq',
    ).all(entity, status, now) as Array<{ data: string }>;
    return rows.map((r) => JSON.parse(r.data) as Row);
  }

  countApplied(paymentId: string, kind: 'capture' | 'refund', amount: number): void {
    this.sql(
      'INSERT INTO applied (payment_id, kind, count, amount) VALUES (?, ?, 1, ?) ON CONFLICT(payment_id, kind) DO UPDATE SET count = count + 1, amount = amount + excluded.amount',
    ).run(paymentId, kind, amount);
  }

  applied(): Array<{ payment_id: string; kind: string; count: number; amount: number }> {
    return this.sql('SELECT payment_id, kind, count, amount FROM applied').all() as never;
  }

  countEntities(): Record<string, number> {
    const rows = this.sql('SELECT entity, COUNT(*) AS n FROM records GROUP BY entity').all() as Array<{
      entity: string;
      n: number;
    }>;
    return Object.fromEntries(rows.map((r) => [r.entity, r.n]));
  }

  reset(): void {
    this.generation++;
    this.tx(() => {
      this.db.exec('DELETE FROM records; DELETE FROM applied;');
      this.sql("DELETE FROM meta WHERE key NOT IN ('key_id', 'key_secret', 'webhook_secret')").run();
    });
  }

  close(): void {
    this.db.close();
  }
}

/** What leaves the sandbox: the record without its bookkeeping keys. */
export function publicView(record: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(record)) if (!k.startsWith('_')) out[k] = v;
  return out;
}
