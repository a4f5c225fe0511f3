import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../contract/errors';

/**
 * Makes `dir` (and its parents) and checks it can be written, before anything that needs it is sent:
 * a read-only PAYCTL_HOME, a path under a regular file or a directory of another user is exit 2 in one
 * line naming the directory, rather than a bare ENOENT/EROFS halfway through. `what`: "journal directory".
 */
export function writableDir(dir: string, what: string, mode?: number): void {
  try {
    mkdirSync(dir, { recursive: true, ...(mode === undefined ? {} : { mode }) });
    accessSync(dir, constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (!code) throw err;
    throw new UsageError(`the ${what} ${dir} cannot be written (${cause(dir) ?? code}): nothing was sent`);
  }
}

/**
 * Why a directory cannot be made: a recursive mkdir says ENOENT for a read-only or foreign parent, so
 * the nearest existing ancestor is asked (EROFS, EACCES; ENOTDIR when it is a file).
 */
function cause(dir: string): string | undefined {
  for (let at = dirname(dir); ; at = dirname(at)) {
    try {
      if (!statSync(at).isDirectory()) return 'ENOTDIR';
      accessSync(at, constants.W_OK);
      return undefined;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') return code;
    }
    if (dirname(at) === at) return undefined;
  }
}

/** Pure: an errno error of writing `path` as exit 2 naming it; anything else unchanged. */
export function unwritable(err: unknown, what: string, path: string): unknown {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (!code || !['EROFS', 'EACCES', 'EPERM', 'ENOENT', 'ENOTDIR', 'EISDIR'].includes(code)) return err;
  return new UsageError(`the ${what} ${path} cannot be written (${code}): nothing was sent`);
}
