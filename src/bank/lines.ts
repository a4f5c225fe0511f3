import { createReadStream } from 'node:fs';
import { StatementError } from './types';

/** The longest line payctl reads from a statement: past it the file is not a statement. */
export const LINE_MAX = 64 * 1024;

/**
 * A statement file as a stream of small chunks: what a chunk's entries make dies young, so a 100 MB
 * statement peaks near a small one's memory (with 256 KiB chunks it took twice as much; docs/decisions.md).
 */
export const openStatement = (file: string) => createReadStream(file, { highWaterMark: 16 * 1024 });

export function readFailure(file: string, err: unknown): StatementError {
  const code = (err as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EACCES'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'is a directory, not a statement file'
          : String((err as Error).message ?? err);
  return new StatementError(file, '', `cannot read the statement: ${why}`);
}

/** The file's lines, numbered, streamed a chunk's worth at a time (a line longer than LINE_MAX ends the read with a one-line error). */
export async function* numberedLines(file: string): AsyncGenerator<Array<{ n: number; text: string }>> {
  let rest = '';
  let n = 0;
  try {
    for await (const chunk of openStatement(file).setEncoding('utf8')) {
      let text = rest + (chunk as string);
      if (n === 0 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      let start = 0;
      const batch: Array<{ n: number; text: string }> = [];
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', start)) {
        const line = text.slice(start, i);
        start = i + 1;
        batch.push({ n: ++n, text: line.endsWith('\r') ? line.slice(0, -1) : line });
      }
      rest = text.slice(start);
      if (batch.length) yield batch;
      if (rest.length > LINE_MAX)
        throw new StatementError(file, `line ${n + 1}`, `a line longer than ${LINE_MAX / 1024} KiB: not a statement`);
    }
  } catch (err) {
    if (err instanceof StatementError) throw err;
    throw readFailure(file, err);
  }
  if (rest) yield [{ n: n + 1, text: rest.endsWith('\r') ? rest.slice(0, -1) : rest }];
}
