import { constants, createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { access, lstat, readlink, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { finished } from 'node:stream/promises';
import { FailureError, UsageError } from '../contract/errors';
import { notRegular } from './path-kind';

const CAUSES: Record<string, string> = {
  ENOENT: 'no such directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large for this file system or limit',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EIO: 'input/output error',
};

/** Why a write failed, in words, naming the path the user gave (never payctl's temporary file). */
export function outError(target: string, err: unknown): FailureError {
  const code = (err as NodeJS.ErrnoException)?.code;
  const cause = (code && CAUSES[code]) ?? (err as Error)?.message ?? String(err);
  return new FailureError(`cannot write --out ${target}: ${cause}${code ? ` (${code})` : ''}; no file was written`);
}

/** Where --out writes: a file (replaced atomically at `path`) or, for a device or pipe, straight through. */
export interface OutPath {
  path: string;
  through: boolean;
  /** A descriptor of this process to write to (a socket reached by /dev/stdout cannot be opened by path). */
  fd?: number;
}

const FD_PATH = /^\/(?:proc\/(self|\d+)|dev)\/fd\/(\d+)$/;

/**
 * What --out names, links followed: a regular file (or none yet) is written atomically at the link's
 * target, so a symlink stays a link; `/dev/stdout` and its kin (whatever the descriptor is: a pipe, a
 * terminal, a redirected file) and `/dev/null` are written through; anything else that is not a
 * regular file (a directory, a FIFO, a device, a socket) is refused (exit 2) before anything is sent:
 * a FIFO nobody reads would block its opener forever. The path itself is never replaced by a regular
 * file unless it was one.
 */
export async function outPath(target: string): Promise<OutPath> {
  let path = resolve(target);
  for (let hop = 0; hop < 40; hop++) {
    const fd = FD_PATH.exec(path);
    if (fd || path.startsWith('/proc/')) {
      const info = await stat(path).catch(() => undefined);
      if (info?.isFile() || info?.isFIFO() || info?.isCharacterDevice()) return { path, through: true };
      const own = fd && (fd[1] === undefined || fd[1] === 'self' || Number(fd[1]) === process.pid);
      if (info?.isSocket() && own) return { path, through: true, fd: Number(fd[2]) };
      throw new UsageError(`--out ${target}: ${path} is not a file, pipe or terminal payctl can write to`);
    }
    const info = await lstat(path).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return undefined;
      throw outError(target, err);
    });
    if (!info || info.isFile()) return { path, through: false };
    if (info.isSymbolicLink()) {
      path = resolve(dirname(path), await readlink(path));
      continue;
    }
    if (info.isDirectory()) throw new UsageError(`--out ${target}: is a directory; nothing was sent`);
    if (path === '/dev/null' && info.isCharacterDevice()) return { path, through: true };
    throw new UsageError(
      `--out ${target}: ${path} is ${notRegular(info)}, not a regular file; nothing was sent`,
      'give a file path (or --out /dev/stdout and a shell pipe or redirection)',
    );
  }
  throw new UsageError(`--out ${target}: too many levels of symbolic links`);
}

/**
 * Before anything is sent: what --out names must be writable as a file (its directory exists and is
 * writable), or be a device or pipe to write through; a directory, block device or socket is exit 2.
 */
export async function checkOutTarget(target: string): Promise<void> {
  const out = await outPath(target);
  if (out.through) return;
  const dir = dirname(out.path);
  const shown = out.path === resolve(target) ? target : `${target} (-> ${out.path})`;
  const info = await stat(dir).catch(() => undefined);
  if (!info)
    throw new UsageError(
      `--out ${shown}: the directory ${dir} does not exist`,
      `create it first (mkdir -p ${dir}) or write somewhere else`,
    );
  if (!info.isDirectory()) throw new UsageError(`--out ${shown}: ${dir} is not a directory`);
  if (
    await access(dir, constants.W_OK).then(
      () => false,
      () => true,
    )
  )
    throw new UsageError(`--out ${shown}: the directory ${dir} is not writable`);
}

/**
 * --out: rows go to a temporary file beside the target (0600: exports hold payment data), renamed
 * over it only when complete, so a failed or interrupted export never leaves a partial file under the
 * final name, or a partial file at all. A write error (full disk, file size limit) ends the export at
 * once, naming the target and the cause.
 */
export async function writeAtomically<T>(target: string, fill: (out: NodeJS.WritableStream) => Promise<T>): Promise<T> {
  const out = await outPath(target);
  if (out.through) return writeThrough(target, out, fill);
  const tmp = join(dirname(out.path), `.${basename(out.path)}.${process.pid}.partial`);
  const stream = createWriteStream(tmp, { flags: 'wx', mode: 0o600 });
  let failed: (err: unknown) => void = () => undefined;
  const failure = new Promise<never>((_, reject) => (failed = reject));
  failure.catch(() => undefined);
  stream.on('error', (err) => failed(err));
  try {
    await Promise.race([new Promise((resolve) => stream.once('open', resolve)), failure]);
    const result = await Promise.race([fill(stream), failure]);
    if (!stream.writableEnded) stream.end();
    await Promise.race([finished(stream), failure]);
    await rename(tmp, out.path);
    return result;
  } catch (err) {
    stream.destroy();
    await rm(tmp, { force: true });
    if ((err as Error)?.name === 'AbortError' || (err as { kind?: string })?.kind) throw err;
    throw outError(target, err);
  }
}

/** A device, pipe or descriptor (`/dev/stdout`): written as it goes, appended to, never replaced. */
async function writeThrough<T>(target: string, out: OutPath, fill: (out: NodeJS.WritableStream) => Promise<T>) {
  const stream: WriteStream =
    out.fd === undefined
      ? createWriteStream(out.path, { flags: 'a' })
      : createWriteStream('', { fd: out.fd, autoClose: false });
  const failure = new Promise<never>((_, reject) => stream.once('error', reject));
  failure.catch(() => undefined);
  try {
    if (out.fd === undefined) await Promise.race([new Promise((r) => stream.once('open', r)), failure]);
    const result = await Promise.race([fill(stream), failure]);
    stream.end();
    await Promise.race([finished(stream), failure]);
    return result;
  } catch (err) {
    stream.destroy();
    if ((err as Error)?.name === 'AbortError' || (err as { kind?: string })?.kind) throw err;
    throw new FailureError(`cannot write --out ${target}: ${(err as Error)?.message ?? String(err)}`);
  }
}
