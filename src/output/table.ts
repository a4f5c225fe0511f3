import Table from 'cli-table3';
import { formatTime } from '../time/format';
import { cellValue, currencyOf } from './columns';
import type { Column, ResourceKind } from './columns';
import { formatMoney } from './money';
import { stripControl } from './sanitize';

function display(row: unknown, col: Column, kind: ResourceKind, tz: string): string {
  const v = cellValue(row, col);
  if (v === null || v === undefined) return '';
  switch (col.type) {
    case 'money':
      return stripControl(formatMoney(v, currencyOf(row, col, kind)));
    case 'time':
      return formatTime(v, tz) || stripControl(String(v));
    case 'bool':
      return v === true || v === 1 ? 'yes' : v === false || v === 0 ? 'no' : stripControl(String(v));
  }
  return stripControl(typeof v === 'object' ? JSON.stringify(v) : String(v));
}

const plain = { chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' }, style: { head: [], border: [] } };

export function tableOfMany(rows: unknown[], columns: Column[], kind: ResourceKind, tz: string): string {
  const table = new Table({ head: columns.map((c) => c.header), ...plain });
  for (const row of rows) table.push(columns.map((c) => display(row, c, kind, tz)));
  return `${table.toString()}\n`;
}

/** One record as key/value rows, notes spelled out. */
export function tableOfOne(row: unknown, columns: Column[], kind: ResourceKind, tz: string): string {
  const table = new Table(plain);
  for (const col of columns) table.push({ [stripControl(col.header)]: display(row, col, kind, tz) });
  const notes = row && typeof row === 'object' ? (row as { notes?: unknown }).notes : undefined;
  if (notes && typeof notes === 'object' && !Array.isArray(notes)) {
    for (const [k, v] of Object.entries(notes)) table.push({ [stripControl(`notes.${k}`)]: stripControl(String(v)) });
  }
  return `${table.toString()}\n`;
}
