import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { FailureError } from '../contract/errors';

/** A lock not yet filled in, or a breaker left by a process that died while breaking, is stale once this old. */
const STALE_EMPTY_MS = 10_000;
const GIVE_UP_MS = 15_000;

// Made when needed: a start-up snapshot (the single executable's) is built without SharedArrayBuffer.
const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock's text, or undefined if there is none. */
function readText(path: string): { text: string; ageMs: number } | undefined {
  try {
    const ageMs = Date.now() - statSync(path).mtimeMs;
    return { text: readFileSync(path, 'utf8'), ageMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function stale(lock: { text: string; ageMs: number }): boolean {
  const pid = Number(/^(\d+) /.exec(lock.text)?.[1]);
  if (!pid) return lock.ageMs > STALE_EMPTY_MS;
  return !pidAlive(pid);
}

function tryCreate(path: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

const unlinkQuietly = (path: string) => {
  try {
    unlinkSync(path);
  } catch {
    /* already gone */
  }
};

/**
 * A lock left by a process that is gone is removed by whoever first takes the breaker, and only if it
 * still holds what was judged stale: two processes breaking it at once cannot remove a fresh lock.
 */
function breakStale(path: string, seen: string) {
  const breaker = `${path}.break`;
  const old = readText(breaker);
  if (old && old.ageMs > STALE_EMPTY_MS) unlinkQuietly(breaker);
  if (!tryCreate(breaker, `${process.pid} breaking\n`)) return;
  try {
    if (readText(path)?.text === seen) unlinkQuietly(path);
  } finally {
    unlinkQuietly(breaker);
  }
}

/**
 * Runs `work` holding an exclusive lock file next to `target` (`<target>.lock`), so that read-modify-write
 * cycles of several payctl processes on one file never interleave. Synchronous: the critical sections
 * are a read and an atomic write of a small file.
 */
export function withFileLock<T>(target: string, work: () => T, giveUpMs = GIVE_UP_MS): T {
  const path = `${target}.lock`;
  const mine = `${process.pid} ${process.getBuiltinModule('node:crypto').randomBytes(8).toString('hex')}\n`;
  const started = Date.now();
  for (let round = 0; !tryCreate(path, mine); round++) {
    const held = readText(path);
    if (held && stale(held)) {
      breakStale(path, held.text);
      continue;
    }
    if (Date.now() - started > giveUpMs) {
      const who = held ? ` (held by process ${held.text.split(' ')[0]})` : '';
      throw new FailureError(
        `${target} is locked by another payctl${who}; try again, or remove ${path} if no payctl is running`,
      );
    }
    sleepSync(Math.min(50, 2 + round * 2) * (0.5 + Math.random()));
  }
  try {
    return work();
  } finally {
    if (readText(path)?.text === mine) unlinkQuietly(path);
  }
}
