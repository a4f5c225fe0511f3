import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../api/errors';
import type { BulkOp } from './input';

export type OutcomeResult = 'done' | 'failed' | 'unknown';

/** What the journal says about one payment when a run starts. */
export type ItemState = 'new' | 'done' | 'failed' | 'unknown' | 'in_flight';

export type JournalRecord =
  | { type: 'run'; op: BulkOp; at: string; pid: number; items: number }
  | { type: 'sent'; id: string; line: number; amount?: number; currency?: string; at: string }
  | { type: 'outcome'; id: string; result: OutcomeResult; status?: string; refund_id?: string; reason?: string; at: string }
  | { type: 'end'; at: string; done: number; skipped: number; failed: number; unknown: number; not_started: number };

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The record of a bulk run, one JSON object per line, appended with a synchronous write before each
 * request is sent and after each outcome is known, so a process killed at any instant leaves a
 * journal that says exactly which payments might have been touched. A lock file beside it keeps two
 * runs from working from the same journal at once.
 */
export class Journal {
  private fd = -1;
  private readonly states = new Map<string, ItemState>();
  private readonly reasons = new Map<string, string>();
  private readonly lock: string;

  private constructor(readonly path: string) {
    this.lock = `${path}.lock`;
  }

  static open(path: string, op: BulkOp): Journal {
    const journal = new Journal(path);
    mkdirSync(dirname(path), { recursive: true });
    journal.takeLock();
    try {
      journal.load(op);
      const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
      journal.fd = openSync(path, 'a', 0o600);
      // A run killed mid-line left a partial record: start ours on a fresh line.
      if (text && !text.endsWith('\n')) writeSync(journal.fd, '\n');
    } catch (err) {
      journal.releaseLock();
      throw err;
    }
    return journal;
  }

  private takeLock() {
    for (let tries = 0; tries < 2; tries++) {
      try {
        writeFileSync(this.lock, String(process.pid), { flag: 'wx', mode: 0o600 });
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const holder = Number(readFileSync(this.lock, 'utf8').trim());
        if (Number.isInteger(holder) && holder > 0 && alive(holder)) {
          throw new UsageError(`journal ${this.path} is in use by another payctl run (pid ${holder})`);
        }
        rmSync(this.lock, { force: true }); // left by a run that was killed
      }
    }
    throw new UsageError(`could not lock journal ${this.path}`);
  }

  private releaseLock() {
    rmSync(this.lock, { force: true });
  }

  private load(op: BulkOp) {
    if (!existsSync(this.path)) return;
    const lines = readFileSync(this.path, 'utf8').split('\n');
    lines.forEach((text, i) => {
      if (!text.trim()) return;
      let record: JournalRecord;
      try {
        record = JSON.parse(text) as JournalRecord;
      } catch {
        if (i === lines.length - 1) return; // the write a kill interrupted: that request was never sent
        throw new UsageError(`journal ${this.path} line ${i + 1} is damaged; it cannot be used to resume safely`);
      }
      if (record.type === 'run' && record.op !== op) {
        throw new UsageError(`journal ${this.path} belongs to a bulk ${record.op}, not a ${op}: use another --journal`);
      }
      if (record.type === 'sent') this.states.set(record.id, 'in_flight');
      if (record.type === 'outcome') {
        this.states.set(record.id, record.result);
        if (record.reason) this.reasons.set(record.id, record.reason);
      }
    });
  }

  stateOf(id: string): ItemState {
    return this.states.get(id) ?? 'new';
  }

  reasonOf(id: string): string | undefined {
    return this.reasons.get(id);
  }

  get resumed(): boolean {
    return this.states.size > 0;
  }

  write(record: JournalRecord) {
    writeSync(this.fd, `${JSON.stringify(record)}\n`);
  }

  sent(id: string, line: number, amount?: number, currency?: string) {
    this.write({ type: 'sent', id, line, amount, currency, at: new Date().toISOString() });
  }

  outcome(id: string, result: OutcomeResult, details: { status?: string; refund_id?: string; reason?: string }) {
    this.write({ type: 'outcome', id, result, ...details, at: new Date().toISOString() });
  }

  close() {
    if (this.fd >= 0) {
      fsyncSync(this.fd);
      closeSync(this.fd);
      this.fd = -1;
    }
    this.releaseLock();
  }
}
