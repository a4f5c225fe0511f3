import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * A 64 KiB tmpfs as a really full disk (needs root), unmounted when the file's tests end; `reason` says
 * why not when it cannot be had (`dir` is then empty).
 */
export function smallTmpfs(): { dir: string; reason: string } {
  const made = (() => {
    const dir = mkdtempSync(join(tmpdir(), 'payctl-full-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', dir], { stdio: 'pipe' });
      return { dir, reason: '' };
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      return { dir: '', reason: `cannot mount a tmpfs (${String((err as Error).message).split('\n')[0]})` };
    }
  })();
  afterAll(() => {
    if (!made.dir) return;
    execFileSync('umount', [made.dir]);
    rmSync(made.dir, { recursive: true, force: true });
  });
  return made;
}

/** Fills the disk under `dir` to the last byte (a file `filler` in it). */
export function fill(dir: string) {
  const fd = openSync(join(dir, 'filler'), 'a');
  try {
    for (;;) writeSync(fd, Buffer.alloc(1024));
  } catch {
    // ENOSPC: full.
  } finally {
    closeSync(fd);
  }
}
