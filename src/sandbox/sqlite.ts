import { chmodSync, closeSync, openSync } from 'node:fs';
import { withoutExperimentalWarning } from '../contract/node-warnings';

type Sqlite = typeof import('node:sqlite');

/** node:sqlite is built into Node (nothing compiles on install); Node 22 calls it experimental when loaded. */
export function loadSqlite(): Sqlite {
  return withoutExperimentalWarning(
    /SQLite is an experimental feature/,
    () => process.getBuiltinModule('node:sqlite') as Sqlite,
  );
}

/** The database holds the sandbox keys and payment data: readable by its owner only. */
export function ownerOnly(file: string): void {
  if (file === ':memory:' || file === '') return;
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

export const SCHEMA = `
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
CREATE TABLE IF NOT EXISTS applied (
  payment_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  count INTEGER NOT NULL,
  amount INTEGER NOT NULL,
  PRIMARY KEY (payment_id, kind)
);
CREATE TABLE IF NOT EXISTS refund_keys (
  merchant TEXT NOT NULL,
  key TEXT NOT NULL,
  digest TEXT NOT NULL,
  refund_id TEXT NOT NULL,
  PRIMARY KEY (merchant, key)
);
`;
