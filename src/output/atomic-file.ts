import { constants, createWriteStream } from 'node:fs';
import { access, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { finished } from 'node:stream/promises';
import { FailureError, UsageError } from '../contract/errors';

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

/** Before anything is sent: the directory must exist and be writable, and the target must not be a directory. */
export async function checkOutTarget(target: string): Promise<void> {
  const dir = dirname(target);
  const info = await stat(dir).catch(() => undefined);
  if (!info)
    throw new UsageError(
      `--out ${target}: the directory ${dir} does not exist`,
      `create it first (mkdir -p ${dir}) or write somewhere else`,
    );
  if (!info.isDirectory()) throw new UsageError(`--out ${target}: ${dir} is not a directory`);
  if (
    await access(dir, constants.W_OK).then(
      () => false,
      () => true,
    )
  )
    throw new UsageError(`--out ${target}: the directory ${dir} is not writable`);
  if ((await stat(target).catch(() => undefined))?.isDirectory())
    throw new UsageError(`--out ${target}: is a directory`);
}

/**
 * --out: rows go to a temporary file beside the target (0600: exports hold payment data), renamed
 * over it only when complete, so a failed or interrupted export never leaves a partial file under the
 * final name, or a partial file at all. A write error (full disk, file size limit) ends the export at
 * once, naming the target and the cause.
 */
export async function writeAtomically<T>(target: string, fill: (out: NodeJS.WritableStream) => Promise<T>): Promise<T> {
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.partial`);
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
    await rename(tmp, target);
    return result;
  } catch (err) {
    stream.destroy();
    await rm(tmp, { force: true });
    if ((err as Error)?.name === 'AbortError' || (err as { kind?: string })?.kind) throw err;
    throw outError(target, err);
  }
}
