import { openStatement, readFailure } from './lines';
import { StatementError } from './types';

/** The longest record payctl reads from a CSV statement. */
const RECORD_MAX = 64 * 1024;

/**
 * The records of a CSV file, streamed: RFC 4180 (quoted cells with doubled quotes, line breaks inside
 * quotes), LF or CRLF, a BOM, and the stray quote netbanking exports put mid-cell kept as text. Each with
 * the line it starts on, a chunk's worth at a time. (Written here rather than taken from csv-parse, which read a statement some 70
 * times slower: docs/decisions.md.)
 */
export async function* csvRecords(file: string): AsyncGenerator<Array<{ line: number; cells: string[] }>> {
  let rest = '';
  let line = 1;
  let first = true;
  try {
    for await (const chunk of openStatement(file).setEncoding('utf8')) {
      let text = rest + (chunk as string);
      if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
      let start = 0;
      const batch: Array<{ line: number; cells: string[] }> = [];
      for (;;) {
        const got = record(text, start);
        if (!got) break;
        if (got.cells) batch.push({ line, cells: got.cells });
        line += got.lines;
        start = got.end;
      }
      rest = text.slice(start);
      if (batch.length) yield batch;
      if (rest.length > RECORD_MAX)
        throw new StatementError(
          file,
          `line ${line}`,
          `a CSV record over ${RECORD_MAX / 1024} KiB (an unclosed quote?)`,
        );
    }
  } catch (err) {
    if (err instanceof StatementError) throw err;
    throw readFailure(file, err);
  }
  if (rest.trim()) {
    const got = record(`${rest}\n`, 0);
    if (!got || got.end < rest.length)
      throw new StatementError(file, `line ${line}`, 'the file ends inside a quoted CSV cell');
    if (got.cells) yield [{ line, cells: got.cells }];
  }
}

/** One record from `start`, if a whole one is in `text`: its cells (none for a blank line), lines, end. */
function record(text: string, start: number): { cells?: string[]; lines: number; end: number } | undefined {
  const nl = text.indexOf('\n', start);
  if (nl < 0) return undefined;
  // Most records hold no quote: split the line as it is.
  const plain = text.indexOf('"', start);
  if (plain < 0 || plain > nl) {
    const raw = text.slice(start, text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl);
    return { cells: raw.trim() ? raw.split(',') : undefined, lines: 1, end: nl + 1 };
  }
  const cells: string[] = [];
  let cell = '';
  let lines = 1;
  let i = start;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' && cell === '' && (i === start || text[i - 1] === ',')) {
      // A quoted cell: up to the quote not doubled.
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) return undefined;
        if (text[q + 1] === '"') {
          cell += text.slice(j, q + 1);
          j = q + 2;
          continue;
        }
        cell += text.slice(j, q);
        lines += (text.slice(i, q).match(/\n/g) ?? []).length;
        i = q + 1;
        break;
      }
      continue;
    }
    if (c === ',') {
      cells.push(cell);
      cell = '';
    } else if (c === '\n') {
      cells.push(cell.endsWith('\r') ? cell.slice(0, -1) : cell);
      return { cells, lines, end: i + 1 };
    } else cell += c;
    i++;
  }
  return undefined;
}
