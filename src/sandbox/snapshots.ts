import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Account } from './accounts';
import { IDENTITY_META } from './accounts';
import { SandboxError } from './errors';
import { loadSqlite, ownerOnly } from './sqlite';
import type { Store } from './store';
import { forgetDeliveries } from './webhook-store';

/**
 * An account's state as a SQLite file of its own: every table of the account's database except what
 * is about running processes (registered webhooks and their delivery queue) or the account's identity
 * (keys, webhook secret, id), plus `_schema` (how to make a table a later database lacks) and the
 * sandbox time it was taken at, which a load sets the clock back to.
 */
const NOT_STATE = ['accounts', 'webhooks', 'webhook_deliveries', 'webhook_attempts', '_schema'];
const CLOCK_KEY = 'snapshot_clock';
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
const identity = IDENTITY_META.map((k) => `'${k}'`).join(', ');

export interface SnapshotInfo {
  name: string;
  /** Sandbox time (Unix seconds) the account was at when it was saved; a load sets its clock back to it. */
  clock: number;
  records: number;
  bytes: number;
}

function fileOf(account: Account, name: string): string {
  if (!NAME.test(name))
    throw new SandboxError(
      'The snapshot name must be 1 to 64 letters, digits, dots, hyphens or underscores',
      400,
      'name',
    );
  return join(account.snapshots, `${name}.db`);
}

/** The file of an existing snapshot of this account, or the service-style refusal. */
export function existingSnapshot(account: Account, name: string, field = 'name'): string {
  const file = fileOf(account, name);
  if (!existsSync(file)) throw new SandboxError(`No snapshot named ${name} of this account`, 400, field);
  return file;
}

function stateTables(store: Store, schema: 'main' | 'snap'): Array<{ name: string }> {
  const skip = NOT_STATE.map((t) => `'${t}'`).join(', ');
  return store.db
    .prepare(
      `SELECT name FROM ${schema}.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN (${skip})`,
    )
    .all() as Array<{ name: string }>;
}

/** Runs `fn` with `file` attached as `snap`, inside one transaction of the account's database. */
function attached<T>(store: Store, file: string, fn: () => T): T {
  store.db.prepare('ATTACH DATABASE ? AS snap').run(file);
  try {
    return store.tx(fn);
  } finally {
    store.db.exec('DETACH DATABASE snap');
  }
}

/** Saves the account's whole state under `name` (replacing a snapshot of that name). */
export function saveSnapshot(account: Account, name: string): SnapshotInfo {
  const file = fileOf(account, name);
  mkdirSync(account.snapshots, { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}.partial`;
  rmSync(partial, { force: true });
  ownerOnly(partial);
  const { store, clock } = account;
  try {
    attached(store, partial, () => {
      store.db.exec('CREATE TABLE snap._schema (tbl TEXT NOT NULL, sql TEXT NOT NULL)');
      store.db.exec(
        `INSERT INTO snap._schema SELECT tbl_name, sql FROM main.sqlite_master
         WHERE sql IS NOT NULL AND tbl_name IN (${stateTables(store, 'main')
           .map((t) => `'${t.name.replaceAll("'", "''")}'`)
           .join(', ')}) ORDER BY type DESC`,
      );
      for (const { name: table } of stateTables(store, 'main')) {
        const where = table === 'meta' ? ` WHERE key NOT IN (${identity})` : '';
        store.db.exec(`CREATE TABLE snap.${quoted(table)} AS SELECT * FROM main.${quoted(table)}${where}`);
      }
      store.db.prepare('INSERT INTO snap.meta (key, value) VALUES (?, ?)').run(CLOCK_KEY, String(clock.now()));
    });
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
  return describe(file, name);
}

/**
 * Replaces the state of the account's database with the snapshot's, in one transaction: every state
 * table emptied and refilled, the clock set to the snapshot's time, the delivery queue of the replaced
 * state forgotten. The identity (keys, webhook secret) and the registered webhooks stay.
 */
export function restore(store: Store, file: string): void {
  attached(store, file, () => {
    const present = new Set(stateTables(store, 'main').map((t) => t.name));
    const saved = stateTables(store, 'snap');
    const schema = store.db.prepare('SELECT tbl, sql FROM snap._schema').all() as Array<{ tbl: string; sql: string }>;
    for (const { tbl, sql } of schema) if (!present.has(tbl)) store.db.exec(sql);
    const kept = new Set(saved.map((t) => t.name));
    for (const table of present) if (!kept.has(table)) store.db.exec(`DELETE FROM main.${quoted(table)}`);
    for (const { name: table } of saved) {
      if (table === 'meta') continue;
      const columns = (store.db.prepare(`PRAGMA snap.table_info(${quoted(table)})`).all() as Array<{ name: string }>)
        .map((c) => quoted(c.name))
        .join(', ');
      store.db.exec(`DELETE FROM main.${quoted(table)}`);
      store.db.exec(`INSERT INTO main.${quoted(table)} (${columns}) SELECT ${columns} FROM snap.${quoted(table)}`);
    }
    store.db.exec(`DELETE FROM main.meta WHERE key NOT IN (${identity})`);
    store.db.exec(
      `INSERT INTO main.meta (key, value) SELECT key, value FROM snap.meta WHERE key NOT IN (${identity}, '${CLOCK_KEY}')`,
    );
    const at = store.db.prepare('SELECT value FROM snap.meta WHERE key = ?').get(CLOCK_KEY) as { value: string };
    store.setMeta('clock_offset', String(Number(at.value) - Math.floor(Date.now() / 1000)));
    forgetDeliveries(store);
  });
  store.touch();
}

export function loadSnapshot(account: Account, name: string): SnapshotInfo {
  const file = existingSnapshot(account, name);
  restore(account.store, file);
  return describe(file, name);
}

export function listSnapshots(account: Account): SnapshotInfo[] {
  const names = existsSync(account.snapshots) ? readdirSync(account.snapshots) : [];
  return names
    .filter((f) => f.endsWith('.db'))
    .map((f) => describe(join(account.snapshots, f), f.slice(0, -3)))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function deleteSnapshot(account: Account, name: string): { name: string; deleted: true } {
  rmSync(existingSnapshot(account, name));
  return { name, deleted: true };
}

function describe(file: string, name: string): SnapshotInfo {
  const { DatabaseSync } = loadSqlite();
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const at = db.prepare('SELECT value FROM meta WHERE key = ?').get(CLOCK_KEY) as { value: string };
    const { n } = db.prepare('SELECT COUNT(*) AS n FROM records').get() as { n: number };
    return { name, clock: Number(at.value), records: n, bytes: statSync(file).size };
  } finally {
    db.close();
  }
}
