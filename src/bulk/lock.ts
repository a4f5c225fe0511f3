import { lstatSync } from 'node:fs';
import { UsageError } from '../contract/errors';
import { Lock, describeHolder } from '../platform/lock';

/**
 * The journal's lock as the journal takes it: a lock path that is not a regular file (a directory,
 * a device, a FIFO) is refused before anything is read or sent, and a live holder is a usage error.
 */
export function takeLock(path: string): { release(): void } {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    st = undefined;
  }
  if (st && !st.isFile())
    throw new UsageError(`the journal's lock ${path} is not a regular file: remove it or use another --journal`);
  const lock = Lock.take(path);
  if (!(lock instanceof Lock)) {
    const journal = path.replace(/\.lock$/, '');
    throw new UsageError(
      `journal ${journal} is in use by another payctl run (${describeHolder(lock)}); wait for it to finish, or stop it`,
    );
  }
  return lock;
}
