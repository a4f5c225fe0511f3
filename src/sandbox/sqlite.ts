import { chmodSync, closeSync, openSync } from 'node:fs';

type Sqlite = typeof import('node:sqlite');

/**
 * node:sqlite is built into Node (nothing compiles on install). Node 22 announces it with an
 * ExperimentalWarning when first loaded; that line is for developers of Node, not for payctl's users,
 * so it is held back while the module loads and every other warning passes through.
 */
export function loadSqlite(): Sqlite {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/SQLite is an experimental feature/.test(text)) return;
    return (emitWarning as (...a: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return process.getBuiltinModule('node:sqlite') as Sqlite;
  } finally {
    process.emitWarning = emitWarning;
  }
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
`;
