import { existsSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holderAlive, Lock, processStart } from '../../../src/platform/lock';

const lockPath = () => join(mkdtempSync(join(tmpdir(), 'payctl-lock-')), 'j.ndjson.lock');

describe('Lock', () => {
  it('is born with its holder in it, and a second taker gets that holder', () => {
    const path = lockPath();
    const lock = Lock.take(path);
    expect(lock).toBeInstanceOf(Lock);
    const content = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    expect(content.pid).toBe(process.pid);
    expect(typeof content.nonce).toBe('string');
    const other = Lock.take(path);
    expect(other).not.toBeInstanceOf(Lock);
    expect(other).toMatchObject({ pid: process.pid });
    (lock as Lock).release();
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(join(path, '..')).filter((f) => f.includes('.tmp') || f.includes('takeover'))).toEqual([]);
  });

  it('takes over a lock whose process is gone, or whose pid now belongs to another process', () => {
    const path = lockPath();
    writeFileSync(path, JSON.stringify({ pid: 999_999_999, nonce: 'dead' }));
    const a = Lock.take(path);
    expect(a).toBeInstanceOf(Lock);
    (a as Lock).release();
    if (processStart(process.pid) !== undefined) {
      // Our own pid with another start time: a reused pid, not the process that took the lock.
      writeFileSync(path, JSON.stringify({ pid: process.pid, start: '1', nonce: 'reused' }));
      expect(holderAlive({ pid: process.pid, start: '1', nonce: 'x' })).toBe(false);
      const b = Lock.take(path);
      expect(b).toBeInstanceOf(Lock);
      (b as Lock).release();
    }
  });

  it("reads an older payctl's lock: a bare live pid holds, a dead one is stale, a fresh empty one holds", () => {
    const path = lockPath();
    writeFileSync(path, String(process.pid));
    expect(Lock.take(path)).toMatchObject({ pid: process.pid });
    writeFileSync(path, '999999999');
    const taken = Lock.take(path);
    expect(taken).toBeInstanceOf(Lock);
    (taken as Lock).release();
    writeFileSync(path, '');
    // Written now by this process's clock (a run under libfaketime moves it away from the file system's).
    utimesSync(path, new Date(), new Date());
    expect(Lock.take(path)).not.toBeInstanceOf(Lock);
  });

  it('a takeover left half done by a killed taker is itself taken over', () => {
    const path = lockPath();
    writeFileSync(path, JSON.stringify({ pid: 999_999_999, nonce: 'dead' }));
    writeFileSync(`${path}.takeover-dead`, JSON.stringify({ pid: 999_999_998, nonce: 'dead-taker' }));
    const lock = Lock.take(path);
    expect(lock).toBeInstanceOf(Lock);
    (lock as Lock).release();
  });

  it('release leaves a lock that is no longer ours alone', () => {
    const path = lockPath();
    const lock = Lock.take(path) as Lock;
    writeFileSync(path, JSON.stringify({ pid: process.pid, nonce: 'someone-else' }));
    lock.release();
    expect(existsSync(path)).toBe(true);
  });
});
