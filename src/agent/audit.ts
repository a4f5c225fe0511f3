import { chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** One line of the audit log: every write an assistant planned, confirmed, and what became of it. */
export interface AuditRecord {
  at: string;
  profile: string;
  tool: string;
  arguments: Record<string, unknown>;
  event: 'planned' | 'refused' | 'sending' | 'done' | 'failed' | 'unknown' | 'declined';
  plan?: unknown;
  amount?: number;
  currency?: string;
  /** What the service made: refund, payment, transfer, payout, order or subscription id. */
  result_id?: string;
  message?: string;
}

export const auditPath = (stateDir: string) => join(stateDir, 'mcp-audit.ndjson');

/** Appends whole records (0600), flushed to disk before the write they announce is sent. */
export class AuditLog {
  constructor(readonly path: string) {}

  append(record: AuditRecord) {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const fd = openSync(this.path, 'a', 0o600);
    try {
      const bytes = Buffer.from(`${JSON.stringify(record)}\n`);
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(this.path, 0o600);
  }
}

/** The log's records, oldest first; a damaged line is shown as such rather than dropped. */
export function readAudit(path: string): AuditRecord[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      try {
        return JSON.parse(line) as AuditRecord;
      } catch {
        return {
          at: '',
          profile: '',
          tool: '',
          arguments: {},
          event: 'failed',
          message: `damaged line: ${line.slice(0, 60)}`,
        };
      }
    });
}
