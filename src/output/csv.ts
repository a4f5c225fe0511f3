import { isoTime, localTime } from './time';
import { cellReader } from './cells';
import { fieldColumn } from './columns';
import type { Column, ColumnContext, ResourceKind } from './columns';

/** Column context with the time formatters (this module loads the time-zone library anyway). */
export const withTime = (at: Omit<ColumnContext, 'time'>): ColumnContext => ({
  ...at,
  time: { iso: isoTime, local: localTime },
});

const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const PHONE = /^\+\d+$/;

/**
 * Cells a spreadsheet would run as a formula get a leading quote (service data only). A plain number
 * (`-12`, `+5.5`) or a phone number (`+919876543210`) is left alone: no spreadsheet evaluates those,
 * and quoting them breaks matching on them.
 */
export function guardFormula(text: string): string {
  const first = text.charCodeAt(0);
  // = + - @ tab CR
  if (first !== 61 && first !== 43 && first !== 45 && first !== 64 && first !== 9 && first !== 13) return text;
  return PLAIN_NUMBER.test(text) || PHONE.test(text) ? text : `'${text}`;
}

/**
 * Default columns expand: money -> integer + `_display`; time -> Unix seconds + `_iso` + `_local`
 * (`YYYY-MM-DD HH:MM:SS` in the zone, which spreadsheets read as a date). --fields stays exact.
 */
export function expandColumns(columns: Column[], kind: ResourceKind, at: ColumnContext, exact: boolean): Column[] {
  if (exact) return columns;
  return columns.flatMap((col) => {
    if (col.type === 'money') return [col, fieldColumn(kind, `${col.key}_display`, at)];
    if (col.type === 'time')
      return [col, fieldColumn(kind, `${col.key}_iso`, at), fieldColumn(kind, `${col.key}_local`, at)];
    return [col];
  });
}

// A formula start or a character that needs quoting: most cells have neither, and one test says so.
const NEEDS_CARE = /^[=+\-@\t\r]|[",;\t\r\n]/;

const textField = (text: string) => (NEEDS_CARE.test(text) ? quoteField(guardFormula(text)) : text);

/** A cell as CSV text, quoted where needed (a number or boolean never needs it). */
function field(value: unknown): string {
  if (typeof value === 'string') return textField(value);
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : String(value);
  if (typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return '';
  return textField(typeof value === 'object' ? JSON.stringify(value) : String(value));
}

/**
 * RFC 4180 quoting, widened: LibreOffice's default import also splits on `;` and tab, so a field
 * holding either is quoted too, as is one holding a comma, quote or line break (quotes doubled).
 */
export function quoteField(text: string): string {
  return /[",;\t\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvHeader = (cols: Column[]) => `${cols.map((c) => quoteField(c.header)).join(',')}\n`;

/** The CSV line of a row, with each column's reader compiled once for a whole export. */
export function csvRowWriter(cols: Column[]): (row: unknown) => string {
  const [first, ...rest] = cols.map(cellReader);
  if (!first) return () => '\n';
  return (row) => {
    let text = field(first(row));
    for (const read of rest) text += `,${field(read(row))}`;
    return `${text}\n`;
  };
}

export const csvRow = (cols: Column[], row: unknown) => csvRowWriter(cols)(row);
