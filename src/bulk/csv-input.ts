import { Readable } from 'node:stream';
import { didYouMean } from '../contract/values/did-you-mean';
import type { BulkOp, Checker, Fields, InputEvent } from './input';

const CSV_HINT = "use payment_id, amount, currency, receipt, note.<key> (or payctl's own export, with id)";

const ROW_COLUMNS = ['payment_id', 'amount', 'currency', 'receipt'];

/**
 * payctl's own export (`payments list -o csv`) names the payment `id`: its row columns are read, the
 * columns that describe the payment are left out (''). A capture leaves out an amount without its
 * currency (the export may lack that column): it then captures the authorized amount, the same
 * figure. A header naming payment_id is a file of rows and stays strict.
 */
function exportColumns(names: string[], op: BulkOp): string[] | undefined {
  if (!names.includes('id') || names.includes('payment_id')) return undefined;
  const lone = op === 'capture' && !names.includes('currency') ? 'amount' : undefined;
  return names.map((n) => (n === 'id' ? 'payment_id' : ROW_COLUMNS.includes(n) && n !== lone ? n : ''));
}

/** The header's problem, or undefined when every column is known and named once. */
function headerProblem(given: string[], names: string[]): string | undefined {
  const seen = new Map<string, number>();
  for (const [i, name] of given.entries()) {
    const first = seen.get(name);
    if (first !== undefined)
      return `column "${name}" appears twice in the header (columns ${first + 1} and ${i + 1}): each column once`;
    seen.set(name, i);
  }
  const known = ROW_COLUMNS;
  const unknown = names.filter((n) => n !== '' && !known.includes(n) && !/^note\.[^.\s]+$/.test(n));
  if (unknown.length) {
    const named = unknown.map((n) => `"${n}"${didYouMean(n, [...known, 'note.<key>'])}`);
    return `unknown CSV column(s) ${named.join(', ')}: ${CSV_HINT}`;
  }
  if (!names.includes('payment_id')) return 'the CSV header needs a payment_id column';
  return undefined;
}

async function* lf(text: AsyncIterable<string>) {
  let carry = '';
  for await (const chunk of text) {
    const joined = carry + chunk;
    carry = joined.endsWith('\r') ? '\r' : '';
    yield (carry ? joined.slice(0, -1) : joined).replace(/\r\n/g, '\n');
  }
  if (carry) yield carry;
}

export async function* csvEvents(text: AsyncIterable<string>, c: Checker): AsyncGenerator<InputEvent> {
  const { parse } = await import('csv-parse');
  const parser = parse({
    bom: true,
    info: true,
    relax_column_count: true,
    skip_empty_lines: true,
    relax_quotes: false,
  });
  // CRLF becomes LF first: csv-parse counts lines unevenly around CRLF inside quoted cells.
  const feed = Readable.from(lf(text)).pipe(parser);
  let names: string[] | undefined;
  try {
    for await (const { record, info } of feed as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      // info.lines is where the row ends; a quoted cell may span lines.
      const line = info.lines - record.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0);
      if (!names) {
        const given = record.map((cell) => cell.trim());
        names = exportColumns(given, c.op) ?? given;
        const problem = headerProblem(given, names);
        if (problem) {
          feed.destroy();
          yield { problem: { line, message: problem } };
          return;
        }
        continue;
      }
      if (record.every((cell) => cell.trim() === '')) continue;
      if (record.length !== names.length) {
        yield { problem: { line, message: `${record.length} field(s) where the header has ${names.length}` } };
        continue;
      }
      const fields: Fields = { notes: {} };
      names.forEach((name, i) => {
        const cell = record[i]!.trim();
        if (name === '') return;
        // defineProperty: an assignment would drop a `note.__proto__` column before the notes parser sees it.
        if (name.startsWith('note.'))
          Object.defineProperty(fields.notes!, name.slice(5), { value: cell, enumerable: true, writable: true });
        else (fields as Record<string, unknown>)[name] = cell;
      });
      yield c.check(line, fields);
    }
  } catch (err) {
    const e = err as { code?: string; lines?: number; message: string };
    if (!e.code?.startsWith('CSV_') && !/^INVALID_|QUOTE/.test(e.code ?? '')) throw err;
    const unclosed = e.code === 'CSV_QUOTE_NOT_CLOSED';
    yield {
      problem: {
        line: e.lines ?? 1,
        message: unclosed ? 'a quoted field is never closed' : e.message.replace(/^[^:]*: /, ''),
      },
    };
  }
}
