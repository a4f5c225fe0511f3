import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../api/errors';

/** --out's directory must exist, before a single request is sent (exit 2, with what to do). */
export async function checkOutTarget(file: string): Promise<void> {
  const dir = dirname(resolve(file));
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) throw new UsageError(`--out ${file}: the directory ${dir} does not exist`, `create it first (mkdir -p ${dir}) or write somewhere else`);
  if ((await stat(file).catch(() => undefined))?.isDirectory()) throw new UsageError(`--out ${file} is a directory: give a file name`);
}
