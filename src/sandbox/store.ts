import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { PageWindow } from '../contract/requests';
import { base62 } from './ids';
import type { Entities, Entity, StoredRecord } from './records';
import { SCHEMA, loadSqlite, ownerOnly } from './sqlite';

/** Records of an entity in a status whose `due_at` has come: what a due job works through. */
export type DueRecords = readonly [entity: Entity, status: string];

export interface ListQuery extends PageWindow {
  /** Only the records of this parent (a customer's statement), read through the index that has it. */
  parent?: string;
  /** An extra SQL condition on the records table, with its arguments. */
  where?: string;
  args?: SQLInputValue[];
}

const INSERT =
  'INSERT INTO records (id, entity, created_at, parent, status, due_at, data) VALUES (?, ?, ?, ?, ?, ?, ?)';
const PAGE_ORDER = 'ORDER BY created_at DESC, seq DESC';

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
  private readonly statements = new Map<string, StatementSync>();
  /** `anyDue`'s statement text for each list of kinds: it is asked after every write. */
  private readonly dueProbes = new WeakMap<readonly DueRecords[], string>();
  private generation = 0;
  private depth = 0;
  private committed: Array<() => void> = [];

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

  /** Changes with every write, this process's (counted here) or another's on the file (data_version). */
  get version(): string {
    const { data_version } = this.sql('PRAGMA data_version').get() as { data_version: number };
    return `${this.generation}.${data_version}`;
  }

  /** Counts a change made behind the store's back (a snapshot loaded), so no earlier page cursor is used. */
  touch(): void {
    this.generation++;
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
  tx<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    this.sql('BEGIN IMMEDIATE').run();
    this.depth++;
    let result: T;
    try {
      result = fn();
      this.sql('COMMIT').run();
    } catch (error) {
      this.committed = [];
      if (this.db.isTransaction) this.sql('ROLLBACK').run();
      throw error;
    } finally {
      this.depth--;
    }
    const done = this.committed;
    this.committed = [];
    for (const callback of done) callback();
    return result;
  }

  /** Runs `callback` once the current transaction has committed (at once outside one); never if it rolls back. */
  onCommit(callback: () => void): void {
    if (this.depth === 0) callback();
    else this.committed.push(callback);
  }

  meta(key: string): string | undefined {
    return (this.sql('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }

  setMeta(key: string, value: string): void {
    const upsert = 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value';
    this.sql(upsert).run(key, value);
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

  get<E extends Entity>(entity: E, id: string): Entities[E] | undefined {
    const row = this.sql('SELECT data FROM records WHERE entity = ? AND id = ?').get(entity, id) as
      { data: string } | undefined;
    return row ? (JSON.parse(row.data) as Entities[E]) : undefined;
  }

  insert<T extends StoredRecord>(record: T, placement: { parent?: string; due_at?: number } = {}): T {
    this.generation++;
    const { id, entity, created_at, status } = record;
    const data = JSON.stringify(record);
    this.sql(INSERT).run(
      id,
      entity,
      created_at,
      placement.parent ?? null,
      status ?? null,
      placement.due_at ?? null,
      data,
    );
    return record;
  }

  /** Writes the record back; `due_at` (null: nothing due) is left as it was when not given. */
  update<T extends StoredRecord>(record: T, due_at?: number | null): T {
    this.generation++; // a list may filter on status
    const status = record.status ?? null;
    const data = JSON.stringify(record);
    if (due_at === undefined) {
      this.sql('UPDATE records SET status = ?, data = ? WHERE entity = ? AND id = ?').run(
        status,
        data,
        record.entity,
        record.id,
      );
    } else {
      this.sql('UPDATE records SET status = ?, data = ?, due_at = ? WHERE entity = ? AND id = ?').run(
        status,
        data,
        due_at,
        record.entity,
        record.id,
      );
    }
    return record;
  }

  /** A page of records, newest first. */
  list<E extends Entity>(entity: E, q: ListQuery): Array<Entities[E]> {
    // Without statistics SQLite reads a parent's records through records_list, stepping over every
    // other parent's: a short statement's first page slowed with every other customer's entries.
    const [table, byParent, parentArg] =
      q.parent === undefined
        ? ['records', '', []]
        : ['records INDEXED BY records_parent_list', 'AND parent = ?', [q.parent]];
    const from = `${table} WHERE entity = ? AND created_at >= ? ${byParent} ${q.where ? `AND ${q.where}` : ''}`;
    const args = [entity, q.from ?? 0, ...parentArg, ...(q.args ?? [])];
    const to = q.to ?? Number.MAX_SAFE_INTEGER;
    const version = this.version;
    const key = (skip: number) => `${version}\0${from}\0${JSON.stringify([...args, to])}\0${skip}`;
    const cursor = q.skip > 0 ? this.cursors.get(key(q.skip)) : undefined;
    // From a cursor, the row value is the upper bound (the cursor's row was within `to`): SQLite seeks
    // the index to it. With `created_at <= to` beside it, or written as an OR, SQLite bounds the scan by
    // `to` instead and steps over every earlier row, so each page deeper in costs more.
    const [bound, boundArgs, offset] = cursor
      ? ['(created_at, seq) < (?, ?)', [cursor.created_at, cursor.seq], 0]
      : ['created_at <= ?', [to], q.skip];
    const rows = this.sql(`SELECT seq, created_at, data FROM ${from} AND ${bound} ${PAGE_ORDER} LIMIT ? OFFSET ?`).all(
      ...args,
      ...boundArgs,
      q.count,
      offset,
    ) as Array<{ seq: number; created_at: number; data: string }>;
    // Where the next page starts, and one row earlier: payctl's walk asks each page from the last row
    // of the one before (the overlap proves no row fell between two pages answered out of order).
    if (this.cursors.size > 1000) this.cursors.clear();
    for (const back of [1, 2]) {
      const row = rows.at(-back);
      if (row) this.cursors.set(key(q.skip + rows.length - back + 1), { created_at: row.created_at, seq: row.seq });
    }
    return rows.map((r) => JSON.parse(r.data) as Entities[E]);
  }

  /** Records in `status` whose due time has come by `now`, oldest due first. */
  due<E extends Entity>(entity: E, status: string, now: number): Array<Entities[E]> {
    const rows = this.sql(
      'SELECT data FROM records WHERE entity = ? AND status = ? AND due_at <= ? ORDER BY due_at, seq',
    ).all(entity, status, now) as Array<{ data: string }>;
    return rows.map((r) => JSON.parse(r.data) as Entities[E]);
  }

  /** Whether any of these is due by `now`: one indexed statement, instead of one per kind. */
  anyDue(kinds: readonly DueRecords[], now: number): boolean {
    let text = this.dueProbes.get(kinds);
    if (text === undefined) {
      const one = 'SELECT 1 FROM records WHERE entity = ? AND status = ? AND due_at <= ?';
      this.dueProbes.set(kinds, (text = `${kinds.map(() => one).join(' UNION ALL ')} LIMIT 1`));
    }
    return this.sql(text).get(...kinds.flatMap(([entity, status]) => [entity, status, now])) !== undefined;
  }

  /** The sum of `amount` over the records of `entity` in `status` (under `parent` when given). */
  sumAmount(entity: Entity, status: string, parent?: string): number {
    const sum = "SELECT COALESCE(SUM(json_extract(data, '$.amount')), 0) AS n FROM records";
    const row = (
      parent === undefined
        ? this.sql(`${sum} WHERE entity = ? AND status = ?`).get(entity, status)
        : this.sql(`${sum} WHERE entity = ? AND status = ? AND parent = ?`).get(entity, status, parent)
    ) as { n: number };
    return row.n;
  }

  countApplied(paymentId: string, kind: 'capture' | 'refund', amount: number): void {
    this.sql(
      `INSERT INTO applied (payment_id, kind, count, amount) VALUES (?, ?, 1, ?)
       ON CONFLICT(payment_id, kind) DO UPDATE SET count = count + 1, amount = amount + excluded.amount`,
    ).run(paymentId, kind, amount);
  }

  /** A refund that failed gives its amount back; it still counts as a write the service applied. */
  uncountRefund(paymentId: string, amount: number): void {
    this.sql("UPDATE applied SET amount = amount - ? WHERE payment_id = ? AND kind = 'refund'").run(amount, paymentId);
  }

  /** What an `X-Refund-Idempotency` key of this merchant made: the request's digest and the refund. */
  refundKey(merchant: string, key: string): { digest: string; refund_id: string } | undefined {
    return this.sql('SELECT digest, refund_id FROM refund_keys WHERE merchant = ? AND key = ?').get(merchant, key) as
      { digest: string; refund_id: string } | undefined;
  }

  /** Inside the refund's transaction, so a key is used exactly when its refund exists. */
  saveRefundKey(merchant: string, key: string, digest: string, refundId: string): void {
    this.sql('INSERT INTO refund_keys (merchant, key, digest, refund_id) VALUES (?, ?, ?, ?)').run(
      merchant,
      key,
      digest,
      refundId,
    );
  }

  applied(): Array<{ payment_id: string; kind: 'capture' | 'refund'; count: number; amount: number }> {
    return this.sql('SELECT payment_id, kind, count, amount FROM applied').all() as never;
  }

  /** What was captured, less what was refunded. */
  appliedBalance(): number {
    const net = "SELECT COALESCE(SUM(CASE kind WHEN 'capture' THEN amount ELSE -amount END), 0) AS n FROM applied";
    return (this.sql(net).get() as { n: number }).n;
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
      this.db.exec('DELETE FROM records; DELETE FROM applied; DELETE FROM refund_keys;');
      // The account's identity (keys, webhook secret, id, name, webhook) and its fee rate outlive a reset.
      const kept = "'key_id', 'key_secret', 'webhook_secret', 'account_id', 'account_name', 'webhook_url', 'fee_rate'";
      this.sql(`DELETE FROM meta WHERE key NOT IN (${kept})`).run();
    });
  }

  close(): void {
    this.db.close();
  }
}
