import {
  closeSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';

/**
 * A cross-process lock file: the bulk journal's, and the config file's around its read-modify-write
 * cycles. `node:crypto` is taken where a lock is, not when this module loads: a call that only reads the
 * config never takes one.
 */
const randomHex = (bytes: number) => process.getBuiltinModule('node:crypto').randomBytes(bytes).toString('hex');

/** Who holds a lock: enough to tell whether that very process still runs (pids are reused). */
export interface LockHolder {
  pid: number;
  /** Process start time in clock ticks since boot (Linux /proc/<pid>/stat field 22), when known. */
  start?: string;
  /** Unique per acquisition: names the lock in takeovers, so an old reading can never match a new lock. */
  nonce: string;
  at?: string;
  /** An older payctl's lock still being filled in: treated as live. */
  young?: boolean;
}

/** Field 22 of /proc/<pid>/stat: the process start time. Undefined off Linux or when the process is gone. */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Alive means: that pid runs, and (where the start time can be read) it is the same process. */
export function holderAlive(h: LockHolder): boolean {
  if (h.young) return true;
  if (!Number.isInteger(h.pid) || h.pid <= 0 || !pidAlive(h.pid)) return false;
  if (h.start === undefined) return true;
  const now = processStart(h.pid);
  return now === undefined || now === h.start;
}

const LEGACY_GRACE_MS = 10_000;

/** The lock's content; a lock from an older payctl (a bare pid, maybe still empty) is read as well as it can be. */
function readHolder(path: string): LockHolder | undefined {
  let text: string;
  let st;
  try {
    st = statSync(path);
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const h = JSON.parse(text) as LockHolder;
    if (h && typeof h === 'object' && typeof h.nonce === 'string') return h;
  } catch {
    /* not ours: below */
  }
  // A bare pid (an older journal lock), or a pid and a word (an older config lock).
  const pid = /^\s*(\d+)(?:\s+\w+)?\s*$/.exec(text)?.[1];
  const nonce = `legacy-${st.ino}-${st.mtimeMs}`;
  if (pid) return { pid: Number(pid), nonce };
  // Empty or unreadable: an older payctl between creating and filling it; stale only once it is old.
  return { pid: 0, nonce, young: Date.now() - st.mtimeMs < LEGACY_GRACE_MS };
}

function writeTemp(path: string, me: LockHolder): string {
  const tmp = `${path}.${process.pid}.${randomHex(4)}.tmp`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, JSON.stringify(me));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return tmp;
}

const removeQuietly = (path: string) => {
  try {
    unlinkSync(path);
  } catch {
    /* already gone */
  }
};

/**
 * Takes `path` for `me`, or returns the live holder. The lock is born with its content (a filled
 * temporary file hard-linked to the name: link fails if the name exists), so it is never seen empty.
 * A stale lock (its process gone) is replaced only by whoever first creates `<path>.takeover-<its
 * nonce>` (itself a lock, taken the same way), and only after re-reading that the stale lock is
 * still there: a live lock can never be removed, and two takers cannot both win.
 */
function acquire(path: string, me: LockHolder, base: string, depth = 0): LockHolder | undefined {
  for (let tries = 0; tries < 50; tries++) {
    const tmp = writeTemp(path, me);
    try {
      linkSync(tmp, path);
      return undefined;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      removeQuietly(tmp);
    }
    const holder = readHolder(path);
    if (!holder) continue; // released between our link and our read
    if (holderAlive(holder)) return holder;
    if (depth > 8) return holder;
    const token = `${base}.takeover-${holder.nonce}`;
    const busy = acquire(token, me, base, depth + 1);
    if (busy) {
      // A live process is taking this stale lock over right now: see who ends up holding it.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
      continue;
    }
    try {
      if (readHolder(path)?.nonce !== holder.nonce) continue; // replaced meanwhile: look again
      const fresh = writeTemp(path, me);
      renameSync(fresh, path);
      return undefined;
    } finally {
      removeQuietly(token);
    }
  }
  throw new Error(`could not take the lock ${path}`);
}

export class Lock {
  private constructor(
    readonly path: string,
    private readonly me: LockHolder,
  ) {}

  /** The lock, or the holder that keeps us from taking it. */
  static take(path: string): Lock | LockHolder {
    const me: LockHolder = {
      pid: process.pid,
      start: processStart(process.pid),
      nonce: randomHex(12),
      at: new Date().toISOString(),
    };
    const holder = acquire(path, me, path);
    return holder ?? new Lock(path, me);
  }

  /** Removes the lock only if it is still ours. */
  release() {
    if (readHolder(this.path)?.nonce === this.me.nonce) removeQuietly(this.path);
  }
}

export const describeHolder = (h: LockHolder) => `pid ${h.pid}${h.at ? `, started ${h.at}` : ''}`;
