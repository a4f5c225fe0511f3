import { FailureError } from '../contract/errors';
import { Lock } from '../platform/lock';

const GIVE_UP_MS = 15_000;

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Runs `work` holding an exclusive lock file next to `target` (`<target>.lock`, the lock the bulk
 * journal takes too), so that read-modify-write cycles of several payctl processes on one file never
 * interleave; a lock whose process is gone is taken over. Synchronous: the critical sections are a read
 * and an atomic write of a small file.
 */
export function withFileLock<T>(target: string, work: () => T, giveUpMs = GIVE_UP_MS): T {
  const path = `${target}.lock`;
  const started = Date.now();
  let lock = Lock.take(path);
  for (let round = 0; !(lock instanceof Lock); round++) {
    if (Date.now() - started > giveUpMs)
      throw new FailureError(
        `${target} is locked by another payctl (held by process ${lock.pid}); try again, or remove ${path} if no payctl is running`,
      );
    sleepSync(Math.min(50, 2 + round * 2) * (0.5 + Math.random()));
    lock = Lock.take(path);
  }
  try {
    return work();
  } finally {
    lock.release();
  }
}
