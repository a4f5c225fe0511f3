import { isoTime, localTime } from './time';
import { cellValue, fieldColumn } from './columns';
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
  if (!/^[=+\-@\t\r]/.test(text)) return text;
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

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'object') return guardFormula(JSON.stringify(value));
  return guardFormula(String(value));
}

/**
 * RFC 4180 quoting, widened: LibreOffice's default import also splits on `;` and tab, so a field
 * holding either is quoted too, as is one holding a comma, quote or line break (quotes doubled).
 */
export function quoteField(text: string): string {
  return /[",;\t\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const line = (fields: string[]) => `${fields.map(quoteField).join(',')}\n`;

export const csvHeader = (cols: Column[]) => line(cols.map((c) => c.header));
export const csvRow = (cols: Column[], row: unknown) => line(cols.map((c) => cell(cellValue(row, c))));
