import { lstatSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';

/**
 * What a path is, links followed: `other` is a directory, a device, a FIFO or a socket, which payctl
 * never reads or writes as a file (a FIFO nobody reads blocks its opener forever).
 */
export type PathKind = 'missing' | 'file' | 'other';

/** Pure: what a path that is not a regular file is, in words; undefined for a regular file. */
export function notRegular(st: Stats): string | undefined {
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** The one check of a path payctl reads or writes as a file (the bulk journal, --input): never opens it. */
export function pathKind(path: string): PathKind {
  try {
    return notRegular(statSync(path)) ? 'other' : 'file';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return 'other';
  }
  // A dangling symbolic link is "missing" to stat, yet opening it would create its target. What was
  // missing may also have been made since the first look (another run of the same journal starting).
  let link: Stats;
  try {
    link = lstatSync(path);
  } catch {
    return 'missing';
  }
  if (!link.isSymbolicLink()) return notRegular(link) ? 'other' : 'file';
  try {
    return notRegular(statSync(path)) ? 'other' : 'file';
  } catch {
    return 'other';
  }
}
