import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * --out: rows go to a temporary file beside the target, renamed over it only when complete, so a
 * failed or interrupted export never leaves a partial file under the final name.
 */
export async function writeAtomically(target: string, fill: (out: NodeJS.WritableStream) => Promise<number>): Promise<number> {
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.partial`);
  const stream = createWriteStream(tmp, { flags: 'wx', mode: 0o644 });
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  try {
    await opened;
    const rows = await fill(stream);
    await new Promise<void>((resolve, reject) => {
      stream.once('error', reject);
      stream.end(() => resolve());
    });
    await rename(tmp, target);
    return rows;
  } catch (err) {
    stream.destroy();
    await rm(tmp, { force: true });
    throw err;
  }
}
