import { columnsFor } from './columns';
import type { ResourceKind } from './columns';
import { getPath } from './fields';
import type { OutputFormat } from './format';
import type { TableStyle } from './table';

// Table and CSV (with their libraries and time-zone code) load only when that format is chosen:
// JSON output, the scripted default, skips them.
const loadCsv = () => import('./csv');
const loadTable = () => import('./table');

export interface RenderOptions {
  format: OutputFormat;
  fields?: string[];
  tz: string;
  out: NodeJS.WritableStream;
  /** Table layout (terminal width, --wide, colour) and where to say which columns did not fit. */
  table?: TableStyle & { dropped?: (headers: string[]) => void | Promise<void> };
}

/** Writes, waiting for 'drain' when the stream is full, so memory stays flat on long exports. */
function write(out: NodeJS.WritableStream, text: string): Promise<void> | undefined {
  if (out.write(text)) return undefined;
  return new Promise((resolve) => out.once('drain', () => resolve()));
}

function pick(obj: unknown, fields?: string[]): unknown {
  if (!fields?.length || obj === null || typeof obj !== 'object') return obj;
  return Object.fromEntries(fields.map((f) => [f, getPath(obj, f) ?? null]));
}

export async function renderOne(kind: ResourceKind, obj: unknown, opts: RenderOptions): Promise<void> {
  switch (opts.format) {
    case 'json':
      await write(opts.out, `${JSON.stringify(pick(obj, opts.fields), null, 2)}\n`);
      return;
    case 'ndjson':
      await write(opts.out, `${JSON.stringify(pick(obj, opts.fields))}\n`);
      return;
    case 'csv': {
      const { csvColumns, csvHeader, csvRow } = await loadCsv();
      const cols = csvColumns(columnsFor(kind, opts.fields, obj), kind, opts.tz, Boolean(opts.fields?.length));
      await write(opts.out, csvHeader(cols) + csvRow(cols, obj));
      return;
    }
    case 'table': {
      const { tableOfOne } = await loadTable();
      await write(opts.out, tableOfOne(obj, columnsFor(kind, opts.fields, obj), kind, opts.tz, opts.table));
    }
  }
}

export async function renderMany(kind: ResourceKind, items: AsyncIterable<unknown> | Iterable<unknown>, opts: RenderOptions): Promise<number> {
  let n = 0;
  if (opts.format === 'table') {
    const rows: unknown[] = [];
    for await (const item of items) rows.push(item);
    const { tableOfMany } = await loadTable();
    if (rows.length) {
      const drawn = tableOfMany(rows, columnsFor(kind, opts.fields, rows[0]), kind, opts.tz, { ...opts.table, ordered: Boolean(opts.fields?.length) });
      await write(opts.out, drawn.text);
      if (drawn.dropped.length) await opts.table?.dropped?.(drawn.dropped);
    }
    return rows.length;
  }
  const csv = opts.format === 'csv' ? await loadCsv() : undefined;
  let cols: ReturnType<NonNullable<typeof csv>['csvColumns']> | undefined;
  for await (const item of items) {
    let text: string;
    // Streamed element by element, yet the same text as JSON.stringify(array, null, 2).
    if (opts.format === 'json') text = `${n === 0 ? '[\n' : ',\n'}  ${JSON.stringify(pick(item, opts.fields), null, 2).replace(/\n/g, '\n  ')}`;
    else if (opts.format === 'ndjson') text = `${JSON.stringify(pick(item, opts.fields))}\n`;
    else {
      const first = !cols;
      cols ??= csv!.csvColumns(columnsFor(kind, opts.fields, item), kind, opts.tz, Boolean(opts.fields?.length));
      text = (first ? csv!.csvHeader(cols) : '') + csv!.csvRow(cols, item);
    }
    n++;
    await write(opts.out, text);
  }
  if (opts.format === 'json') await write(opts.out, n === 0 ? '[]\n' : '\n]\n');
  return n;
}
