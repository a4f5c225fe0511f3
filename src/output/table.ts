import Table from 'cli-table3';
import { formatTime } from './time';
import { cellValue, currencyOf, tableRank } from './columns';
import type { Column, ResourceKind } from './columns';
import { GAP, fitColumns, padEnd, shorten, textWidth } from './layout';
import { formatMoney, formatMoneyShort } from './money';
import { stripControl } from './sanitize';
import { KEY_NOTE } from '../contract/vocabulary';
import { paint } from './style';
import type { Style } from './style';

/** How a table is drawn: the terminal's width (undefined: no limit), --wide, and whether to colour. */
export interface TableStyle {
  width?: number;
  wide?: boolean;
  color?: boolean;
  /** Columns picked with --fields: the order asked for is their priority. */
  ordered?: boolean;
}

export interface DrawnTable {
  text: string;
  /** Headers of the columns left out to fit the width. */
  dropped: string[];
}

/** Notes as a person reads them: the identity payctl stores in each refund is for payctl (JSON keeps it). */
function readableNotes(notes: object): Array<[string, unknown]> {
  return Object.entries(notes).filter(([k]) => k !== KEY_NOTE);
}

/** A cell's text; money in one human form (`₹200.00`), or with the minor units too (`--wide`, one record). */
function display(row: unknown, col: Column, kind: ResourceKind, tz: string, both = true): string {
  const v = cellValue(row, col);
  if (v === null || v === undefined) return '';
  switch (col.type) {
    case 'money':
      return stripControl((both ? formatMoney : formatMoneyShort)(v, currencyOf(row, col, kind)));
    case 'time':
      return formatTime(v, tz) || stripControl(String(v));
    case 'bool':
      return v === true || v === 1 ? 'yes' : v === false || v === 0 ? 'no' : stripControl(String(v));
  }
  if (col.key === 'notes' && typeof v === 'object' && !Array.isArray(v)) {
    const notes = readableNotes(v);
    return notes.length ? stripControl(JSON.stringify(Object.fromEntries(notes))) : '';
  }
  return stripControl(typeof v === 'object' ? JSON.stringify(v) : String(v));
}

/** The colour of a state, whatever resource it belongs to: done is green, failed red, waiting yellow. */
const STATUS_STYLE: Record<string, Style> = {
  captured: 'green',
  paid: 'green',
  processed: 'green',
  active: 'green',
  completed: 'green',
  done: 'green',
  authenticated: 'green',
  failed: 'red',
  rejected: 'red',
  halted: 'red',
  unknown: 'red',
  authorized: 'yellow',
  pending: 'yellow',
  processing: 'yellow',
  queued: 'yellow',
  attempted: 'yellow',
  created: 'yellow',
  refunded: 'magenta',
  reversed: 'magenta',
  cancelled: 'gray',
  expired: 'gray',
  skipped: 'gray',
  paused: 'gray',
};
const STATUS_KEYS = new Set(['status', 'result', 'refund_status', 'delivery']);

const SHRINKABLE = (col: Column) =>
  (col.type === 'text' || col.type === 'json') && !/(^|_|\.)id$/.test(col.key) && !STATUS_KEYS.has(col.key);

/** Borderless: columns two spaces apart, a rule under the header; cli-table3 pads and cuts the cells. */
function draw(
  head: string[],
  body: string[][],
  widths: number[],
  color: boolean | undefined,
  colorize?: (row: number, col: number, text: string) => string,
): string {
  const table = new Table({
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: ' '.repeat(GAP),
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
    colWidths: widths,
    wordWrap: false,
    truncate: '…',
  });
  table.push(head.map((h, i) => padEnd(shorten(h, widths[i]!), widths[i]!)));
  table.push(widths.map((w) => paint('dim', '─'.repeat(w), color)));
  body.forEach((row, r) =>
    table.push(
      row.map((cell, c) => (colorize ? colorize(r, c, shorten(cell, widths[c]!)) : shorten(cell, widths[c]!))),
    ),
  );
  return `${table
    .toString()
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')}\n`;
}

export function tableOfMany(
  rows: unknown[],
  given: Column[],
  kind: ResourceKind,
  tz: string,
  style: TableStyle = {},
): DrawnTable {
  const columns = given.filter((c) => !c.whenSet || rows.some((row) => cellValue(row, c) != null));
  const cells = rows.map((row) => columns.map((c) => display(row, c, kind, tz, Boolean(style.wide))));
  // A short header is for a narrow terminal; --wide has room for every column under its own name.
  const header = (c: Column) => (style.wide ? c.header : (c.short ?? c.header));
  const fit = fitColumns(
    columns.map((c, i) => ({
      header: header(c),
      rank: style.ordered ? i : tableRank(kind, c, i),
      shrinkable: SHRINKABLE(c),
    })),
    cells,
    style.wide ? undefined : style.width,
  );
  const shown = fit.keep.map((i) => columns[i]!);
  const body = cells.map((row) => fit.keep.map((i) => row[i]!));
  const text = draw(
    shown.map(header),
    body,
    fit.keep.map((i) => fit.widths[i]!),
    style.color,
    (_, c, text) =>
      STATUS_KEYS.has(shown[c]!.key) && STATUS_STYLE[text] ? paint(STATUS_STYLE[text]!, text, style.color) : text,
  );
  return { text, dropped: columns.filter((_, i) => !fit.keep.includes(i)).map((c) => c.header) };
}

/** One record as key/value rows, notes spelled out; long values are cut to the width (all of them with --wide). */
export function tableOfOne(row: unknown, columns: Column[], kind: ResourceKind, tz: string, style: TableStyle = {}) {
  const notes = row && typeof row === 'object' ? (row as { notes?: unknown }).notes : undefined;
  const spelled = Boolean(notes && typeof notes === 'object' && !Array.isArray(notes));
  // Notes spelled out one a line are shown once: not also as the `notes` column's JSON.
  const pairs: Array<[string, string, Column | undefined]> = columns
    .filter((col) => !(spelled && col.key === 'notes'))
    .map((col) => [stripControl(col.header), display(row, col, kind, tz), col]);
  if (spelled) {
    for (const [k, v] of readableNotes(notes as object))
      pairs.push([
        stripControl(`notes.${k}`),
        stripControl(typeof v === 'object' ? JSON.stringify(v) : String(v)),
        undefined,
      ]);
  }
  const keyWidth = Math.max(0, ...pairs.map(([k]) => textWidth(k)));
  const valueWidth = style.wide || style.width === undefined ? undefined : Math.max(10, style.width - keyWidth - GAP);
  return pairs
    .map(([k, v, col]) => {
      const value = valueWidth === undefined ? v : shorten(v, valueWidth);
      const shown =
        col && STATUS_KEYS.has(col.key) && STATUS_STYLE[value]
          ? paint(STATUS_STYLE[value]!, value, style.color)
          : value;
      return `${paint('bold', padEnd(k, keyWidth), style.color)}${' '.repeat(GAP)}${shown}`.trimEnd();
    })
    .join('\n')
    .concat('\n');
}
