import { isoTime } from '../time/format';
import { cellValue, currencyOf } from './columns';
import type { Column, ResourceKind } from './columns';
import { formatMoneyShort } from './money';

/** Cells a spreadsheet would run as a formula get a leading quote (service data only). */
export function guardFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

interface CsvColumn {
  header: string;
  value: (row: unknown) => unknown;
}

/** Default columns expand: money -> integer + `_display`; time -> Unix seconds + `_iso`. --fields stays exact. */
export function csvColumns(columns: Column[], kind: ResourceKind, tz: string, exact: boolean): CsvColumn[] {
  const out: CsvColumn[] = [];
  for (const col of columns) {
    const raw = (row: unknown) => cellValue(row, col);
    out.push({ header: col.header, value: raw });
    if (exact) continue;
    if (col.type === 'money') out.push({ header: `${col.header}_display`, value: (row) => formatMoneyShort(raw(row), currencyOf(row, col, kind)) });
    if (col.type === 'time') out.push({ header: `${col.header}_iso`, value: (row) => isoTime(raw(row), tz) });
  }
  return out;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'object') return guardFormula(JSON.stringify(value));
  return guardFormula(String(value));
}

/** RFC 4180: a field holding a comma, quote or line break is quoted, its quotes doubled. */
export function quoteField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const line = (fields: string[]) => `${fields.map(quoteField).join(',')}\n`;

export const csvHeader = (cols: CsvColumn[]) => line(cols.map((c) => c.header));
export const csvRow = (cols: CsvColumn[], row: unknown) => line(cols.map((c) => cell(c.value(row))));
