import { createHash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { redact } from '../config/secrets';

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
  /** The refund's idempotency key: what ties an unknown outcome to its check and its retry. */
  key?: string;
  /** What the service made: refund, payment, transfer, payout, order or subscription id. */
  result_id?: string;
  message?: string;
}

/** A record as stored: its place in the log and the hash of the line before it. */
export type Chained = AuditRecord & { seq: number; prev: string };

export const auditPath = (stateDir: string) => join(stateDir, 'mcp-audit.ndjson');
/** The last record's number and hash, so that removing or editing the last records shows too. */
const headPath = (path: string) => `${path}.head`;

const START = 'start';
/** More than any one record. */
const TAIL_BYTES = 1 << 20;
export const lineHash = (line: string) => createHash('sha256').update(line).digest('hex');

/** The last record's number and hash, read from the file's end (another server may have appended since). */
function lastOf(path: string): { seq: number; hash: string } {
  if (!existsSync(path)) return { seq: 0, hash: START };
  const fd = openSync(path, 'r');
  let text: string;
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, TAIL_BYTES);
    const buf = Buffer.alloc(length);
    readSync(fd, buf, 0, length, size - length);
    text = buf.toString('utf8');
  } finally {
    closeSync(fd);
  }
  const line = text.split('\n').filter(Boolean).pop();
  if (line === undefined) return { seq: 0, hash: START };
  let seq = 0;
  try {
    seq = Number((JSON.parse(line) as Chained).seq) || 0;
  } catch {
    // A damaged last line still chains: `payctl mcp log` names it.
  }
  return { seq, hash: lineHash(line) };
}

/** Writes all of `bytes` at `fd`'s end, flushed to disk. */
function writeSynced(fd: number, bytes: Buffer) {
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
  fsyncSync(fd);
}

/** Replaces a small file whole (a new file renamed over the old): it never holds half a line. */
function replaceSynced(path: string, text: string) {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSynced(fd, Buffer.from(text));
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/**
 * Appends whole records (0600), each fsynced before `append` returns and carrying the hash of the line
 * before it, secrets redacted. An intent is recorded before its write is sent; `append` throws when the
 * record could not be stored, and the caller decides what that means for the write.
 */
export class AuditLog {
  constructor(readonly path: string) {}

  append(record: AuditRecord): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const last = lastOf(this.path);
    const seq = last.seq + 1;
    const line = redact(JSON.stringify({ seq, ...record, prev: last.hash }));
    const fd = openSync(this.path, 'a', 0o600);
    const size = fstatSync(fd).size;
    try {
      writeSynced(fd, Buffer.from(`${line}\n`));
      replaceSynced(headPath(this.path), `${seq} ${lineHash(line)}\n`);
    } catch (err) {
      // Not stored whole: the log is cut back to what it held, so it never says more than the caller was told.
      try {
        ftruncateSync(fd, size);
        fsyncSync(fd);
      } catch {
        // `payctl mcp log` then names what is wrong.
      }
      throw err;
    } finally {
      closeSync(fd);
    }
    chmodSync(this.path, 0o600);
  }
}

/** The log's records, oldest first, and what is wrong with its chain: each problem names the record. */
export function verifyAudit(path: string): { records: Chained[]; problems: string[]; legacy: number } {
  if (!existsSync(path)) return { records: [], problems: [], legacy: 0 };
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  const records: Chained[] = [];
  const problems: string[] = [];
  let prevHash = START;
  let prevSeq = 0;
  let legacy = 0;
  lines.forEach((line, i) => {
    let rec: Chained | undefined;
    try {
      rec = JSON.parse(line) as Chained;
    } catch {
      problems.push(`line ${i + 1} is not a record (damaged)`);
    }
    if (rec && typeof rec === 'object' && rec.seq === undefined && prevSeq === 0) {
      // Written before records were chained: shown, and counted as not verified.
      legacy++;
      records.push({ ...rec, seq: 0, prev: '' });
    } else if (rec) {
      const seq = Number(rec.seq);
      if (seq > prevSeq + 1)
        problems.push(
          `record${seq - prevSeq > 2 ? `s ${prevSeq + 1}-${seq - 1} were` : ` ${prevSeq + 1} was`} deleted (line ${i + 1} is record ${seq})`,
        );
      else if (rec.prev !== prevHash)
        problems.push(
          prevSeq === 0
            ? `the lines before record ${seq} were changed or removed`
            : `record ${prevSeq} was edited: record ${seq} holds another hash of it`,
        );
      records.push(rec);
      prevSeq = seq;
    }
    prevHash = lineHash(line);
  });
  const head = existsSync(headPath(path)) ? readFileSync(headPath(path), 'utf8').trim().split(' ') : undefined;
  if (head) {
    const [seq, hash] = [Number(head[0]), head[1]];
    if (seq > prevSeq)
      problems.push(
        `record${seq - prevSeq > 1 ? `s ${prevSeq + 1}-${seq} were` : ` ${seq} was`} deleted from the end (the log held ${seq})`,
      );
    else if (seq === prevSeq && hash !== prevHash) problems.push(`record ${seq} (the last) was edited`);
  }
  return { records, problems, legacy };
}

/**
 * The refund of `paymentId` whose outcome the log holds as unknown and no later record settled (done,
 * or refused by the service), if any: its key, amount, and when it was sent.
 */
export function unknownRefundIn(
  records: AuditRecord[],
  paymentId: string,
): { key: string; amount: number; sentAtMs?: number } | undefined {
  const open = new Map<string, { amount: number; sentAtMs?: number }>();
  for (const r of records) {
    if (r.tool !== 'payments_refund' || !r.key || r.arguments?.payment_id !== paymentId) continue;
    // A send whose outcome record is missing (the disk refused it) is as unknown as one recorded so.
    if (r.event === 'sending' && typeof r.amount === 'number')
      open.set(r.key, { amount: r.amount, sentAtMs: Date.parse(r.at) });
    if (r.event === 'unknown' && typeof r.amount === 'number')
      open.set(r.key, { amount: r.amount, sentAtMs: open.get(r.key)?.sentAtMs });
    if (r.event === 'done' || r.event === 'failed') open.delete(r.key);
  }
  const last = [...open].pop();
  return last && { key: last[0], ...last[1] };
}

/**
 * The amount an earlier refund of `paymentId` under `key` asked for, whatever its outcome: a key names one
 * refund, so a later plan under the same key may only ask for that amount again.
 */
export function keyedRefundIn(records: AuditRecord[], paymentId: string, key: string): number | undefined {
  for (const r of records)
    if (r.tool === 'payments_refund' && r.key === key && r.arguments?.payment_id === paymentId && r.event === 'sending')
      if (typeof r.amount === 'number') return r.amount;
  return undefined;
}
