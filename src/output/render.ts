import { pagesOf } from '../rows/pages';
import { cellValue, columnsFor, fieldColumn } from './columns';
import type { Column, ResourceKind } from './columns';
import type { OutputFormat } from './format';
import type { TableStyle } from './table';

// Table and CSV (with their libraries and time-zone code) load only when that format is chosen:
// JSON output, the scripted default, skips them.
const loadCsv = () => import('./csv');
const loadTable = () => import('./table');

/** The rows of a list: an array, or pages as they come. */
export type Rows = AsyncIterable<unknown> | Iterable<unknown>;

export interface RenderOptions {
  format: OutputFormat;
  fields?: string[];
  tz: string;
  out: NodeJS.WritableStream;
  /** Table layout (terminal width, --wide, colour) and where to say which columns did not fit. */
  table?: TableStyle & { dropped?: (headers: string[]) => void | Promise<void> };
  /** Rows come from a list of customers: `customer_id` leads the default columns, however many there are. */
  tagged?: boolean;
}

/** Writes, waiting for 'drain' when the stream is full, so memory stays flat on long exports. */
export function write(out: NodeJS.WritableStream, text: string): Promise<void> | undefined {
  if (out.write(text)) return undefined;
  return new Promise((resolve) => out.once('drain', () => resolve()));
}

const DERIVED = /_(display|iso|local)$/;

/** --fields for JSON: each name picked by its path, derived columns (`amount_display`) computed. */
async function picker(kind: ResourceKind, opts: RenderOptions): Promise<(obj: unknown) => unknown> {
  const fields = opts.fields;
  if (!fields?.length) return (obj) => obj;
  // Zone and time library load only if a derived column needs them (finding the machine's zone asks ICU).
  const at = fields.some((f) => DERIVED.test(f)) ? (await loadCsv()).withTime({ tz: opts.tz }) : { tz: 'UTC' };
  const cols = fields.map((f) => fieldColumn(kind, f, at));
  return (obj) =>
    obj === null || typeof obj !== 'object'
      ? obj
      : Object.fromEntries(cols.map((c) => [c.key, cellValue(obj, c) ?? null]));
}

/** The columns of a CSV (or spreadsheet) export: fixed by the kind and options, never by the first row. */
export async function exportColumns(
  kind: ResourceKind,
  opts: Omit<RenderOptions, 'out' | 'format'>,
  sample?: unknown,
): Promise<Column[]> {
  const { expandColumns, withTime } = await loadCsv();
  const at = withTime({ tz: opts.tz, tagged: opts.tagged });
  return expandColumns(columnsFor(kind, opts.fields, sample, at), kind, at, Boolean(opts.fields?.length));
}

/** Columns of a table: the time library is loaded by the table anyway. */
async function tableColumns(kind: ResourceKind, opts: RenderOptions, sample: unknown): Promise<Column[]> {
  const { withTime } = await loadCsv();
  return columnsFor(kind, opts.fields, sample, withTime({ tz: opts.tz, tagged: opts.tagged }));
}

export async function renderOne(kind: ResourceKind, obj: unknown, opts: RenderOptions): Promise<void> {
  const pick = opts.format === 'json' || opts.format === 'ndjson' ? await picker(kind, opts) : (obj: unknown) => obj;
  switch (opts.format) {
    case 'json':
      await write(opts.out, `${JSON.stringify(pick(obj), null, 2)}\n`);
      return;
    case 'ndjson':
      await write(opts.out, `${JSON.stringify(pick(obj))}\n`);
      return;
    case 'csv': {
      const { csvHeader, csvRow } = await loadCsv();
      const cols = await exportColumns(kind, opts, obj);
      await write(opts.out, csvHeader(cols) + csvRow(cols, obj));
      return;
    }
    case 'table': {
      const { tableOfOne } = await loadTable();
      await write(opts.out, tableOfOne(obj, await tableColumns(kind, opts, obj), kind, opts.tz, opts.table));
    }
  }
}

export async function renderMany(kind: ResourceKind, items: Rows, opts: RenderOptions): Promise<number> {
  if (opts.format === 'table') {
    const rows: unknown[] = [];
    for await (const item of items) rows.push(item);
    const { tableOfMany } = await loadTable();
    if (rows.length) {
      const drawn = tableOfMany(rows, await tableColumns(kind, opts, rows[0]), kind, opts.tz, {
        ...opts.table,
        ordered: Boolean(opts.fields?.length),
      });
      await write(opts.out, drawn.text);
      if (drawn.dropped.length) await opts.table?.dropped?.(drawn.dropped);
    }
    return rows.length;
  }
  if (opts.format === 'csv') return renderCsv(kind, items, opts);
  const pick = await picker(kind, opts);
  // Streamed element by element, yet the same text as JSON.stringify(array, null, 2).
  const n = await writeEach(opts.out, items, (item, i) =>
    opts.format === 'json'
      ? `${i === 0 ? '[\n' : ',\n'}  ${JSON.stringify(pick(item), null, 2).replace(/\n/g, '\n  ')}`
      : `${JSON.stringify(pick(item))}\n`,
  );
  if (opts.format === 'json') await write(opts.out, n === 0 ? '[]\n' : '\n]\n');
  return n;
}

const BLOCK = 1 << 16;

/**
 * Text gathered into one write per page of rows (or 64 KiB): a write per row costs more than making
 * the row. What is gathered goes out as soon as the rows pause (the next page is awaited), so a slow
 * walk still shows its rows as they come; a full stream is waited for before more is gathered.
 */
export function gathered(out: NodeJS.WritableStream): {
  add(text: string): Promise<void> | undefined;
  end(): Promise<void> | undefined;
} {
  let pending = '';
  let scheduled = false;
  const full = () => (out as { writableNeedDrain?: boolean }).writableNeedDrain === true;
  const take = () => {
    const text = pending;
    pending = '';
    return text;
  };
  const flush = () => {
    scheduled = false;
    if (pending && !(out as { destroyed?: boolean }).destroyed) out.write(take());
  };
  return {
    add(text) {
      pending += text;
      if (pending.length >= BLOCK) return write(out, take());
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
      return full() ? new Promise((resolve) => out.once('drain', () => resolve())) : undefined;
    },
    end: () => (pending && !(out as { destroyed?: boolean }).destroyed ? write(out, take()) : undefined),
  };
}

/**
 * Each item's text, gathered (below); returns how many. The text made before a failure still goes out
 * before the failure is told, as it did row by row.
 */
async function writeEach(
  out: NodeJS.WritableStream,
  items: Rows,
  textOf: (item: unknown, index: number) => string | Promise<string>,
): Promise<number> {
  const text = gathered(out);
  let n = 0;
  try {
    for await (const page of pagesOf(items)) {
      let chunk = '';
      for (const item of page) {
        const made = textOf(item, n++);
        chunk += typeof made === 'string' ? made : await made;
      }
      const wait = text.add(chunk);
      if (wait) await wait;
    }
  } catch (err) {
    void text.end();
    throw err;
  }
  await text.end();
  return n;
}

/** The header always comes first, also with no rows (sqlite `.import` and csvkit need it). */
async function renderCsv(kind: ResourceKind, items: Rows, opts: RenderOptions): Promise<number> {
  const { csvHeader, csvRowWriter } = await loadCsv();
  const fixed = Boolean(opts.fields?.length) || columnsFor(kind).length > 0;
  const cols = fixed ? await exportColumns(kind, opts) : undefined;
  let row = cols && csvRowWriter(cols);
  if (cols) await write(opts.out, csvHeader(cols));
  // Without fixed columns, the first row decides them (and comes with the header).
  const first = async (item: unknown) => {
    const found = await exportColumns(kind, opts, item);
    row = csvRowWriter(found);
    return csvHeader(found) + row(item);
  };
  return writeEach(opts.out, items, (item) => (row ? row(item) : first(item)));
}
