import { wallClockDate } from './time';
import { cellReader, currencyReader } from './cells';
import type { Column, ResourceKind } from './columns';
import { minorDigits, minorUnits } from './money';
import { unchanged, zoneText } from './summary';
import type { ExportSummary } from './summary';
import { pagesOf } from '../rows/pages';
import { ZipWriter } from './zip';
import type { ZipPart } from './zip';
import { KINDS } from '../contract/kinds';
import {
  BOOK_RELS,
  CONTENT_TYPES,
  DATE,
  INTEGER,
  ROOT_RELS,
  RUPEES,
  SHEET_END,
  Styles,
  cellXml,
  columnName,
  moneyFormat,
  serial,
  sheetStart,
  workbook,
} from './xlsx-xml';
import type { Cell } from './xlsx-xml';

export { xmlText } from './xlsx-xml';

/*
 * An xlsx workbook written from scratch and streamed: an xlsx is a zip of a few XML parts
 * (ECMA-376 SpreadsheetML). The data sheet goes out row by row as rows come (text as inline strings,
 * so no shared-strings table is held), then the Summary sheet, then the styles the cells used.
 */

/** A column of the data sheet: its cell and style for a row (readers compiled once per export). */
interface SheetColumn {
  value: (row: unknown) => Cell;
  style: (row: unknown) => number;
  /** Date cells: as wide as `2024-04-30 23:59:59`. */
  date?: boolean;
}

function cellOf(col: Column, kind: ResourceKind, styles: Styles): SheetColumn {
  const d = col.derived;
  if (d?.as === 'display') {
    const read = cellReader(d.from);
    const currency = currencyReader(d.from, kind);
    const byCurrency = new Map<string, number>();
    return {
      value: (row) => {
        const v = read(row);
        const digits = minorDigits(currency(row));
        return v === null || v === undefined || v === '' || !Number.isFinite(Number(v))
          ? null
          : Number(v) / 10 ** (digits ?? 2);
      },
      style: (row) => {
        const c = currency(row) ?? 'INR';
        let s = byCurrency.get(c);
        if (s === undefined) byCurrency.set(c, (s = styles.of(moneyFormat(c))));
        return s;
      },
    };
  }
  if (d?.as === 'local') {
    const read = cellReader(d.from);
    const s = styles.of(DATE);
    return { value: (row) => serial(wallClockDate(read(row), d.at.tz)), style: () => s, date: true };
  }
  const read = cellReader(col);
  const numeric = col.type === 'money' || col.type === 'time';
  const s = numeric ? styles.of(INTEGER) : 0;
  return {
    value: (row) => {
      const v = read(row);
      if (v === null || v === undefined) return null;
      if (typeof v === 'number' || typeof v === 'boolean') return v;
      if (numeric && /^-?\d+$/.test(String(v))) return Number(v);
      return typeof v === 'object' ? JSON.stringify(v) : String(v);
    },
    style: () => s,
  };
}

/** A width from the header and the first rows' cells: wide enough to read, never a wall of one column. */
function width(col: Column, sheetCol: SheetColumn, cells: Cell[]): number {
  const lengths = cells.map((c) =>
    sheetCol.date && c !== null ? 19 : typeof c === 'number' ? String(c).length + 4 : String(c ?? '').length,
  );
  return Math.min(50, Math.max(col.header.length + 3, ...lengths.map((l) => l + 2)));
}

/**
 * A real workbook, streamed (each row is deflated and written out as it comes, so memory stays flat):
 * typed cells, frozen header, filter over every row, widths from the first page, then a Summary sheet.
 */
export async function writeXlsx(
  out: NodeJS.WritableStream,
  kind: ResourceKind,
  columns: Column[],
  items: AsyncIterable<unknown> | Iterable<unknown>,
  summary: ExportSummary,
): Promise<number> {
  const zip = new ZipWriter(out);
  const styles = new Styles();
  const name = KINDS[kind].sheet ?? 'Rows';
  await zip.file('[Content_Types].xml', CONTENT_TYPES);
  await zip.file('_rels/.rels', ROOT_RELS);
  await zip.file('xl/_rels/workbook.xml.rels', BOOK_RELS);

  const sheet = await zip.part('xl/worksheets/sheet1.xml');
  const cells = columns.map((c) => cellOf(c, kind, styles));
  const starts = columns.map((_, i) => `<c r="${columnName(i)}`);
  const first: unknown[] = [];
  let n = 0;
  let started = false;
  const add = (row: unknown) => {
    const r = String(++n + 1);
    let xml = '<row r="' + r + '">';
    for (let i = 0; i < cells.length; i++) {
      const c = cells[i]!;
      xml += cellXml(starts[i]!, r, c.style(row), c.value(row));
    }
    return sheet.write(xml + '</row>');
  };
  const start = async () => {
    started = true;
    const widths = columns.map((col, i) =>
      width(
        col,
        cells[i]!,
        first.map((row) => cells[i]!.value(row)),
      ),
    );
    let head = `${sheetStart(widths, true)}<row r="1" s="${Styles.BOLD}" customFormat="1">`;
    columns.forEach((col, i) => (head += cellXml(starts[i]!, '1', Styles.BOLD, col.header)));
    await sheet.write(`${head}</row>`);
    for (const row of first) await add(row);
    first.length = 0;
  };
  for await (const page of pagesOf(items)) {
    for (const row of page) {
      if (!started) {
        if (first.push(row) === 100) await start();
        continue;
      }
      // Most rows only add to the part's chunk: a promise only when deflate or the file is behind.
      const wait = add(row);
      if (wait) await wait;
    }
  }
  if (!started) await start();
  const filter = `A1:${columnName(Math.max(columns.length, 1) - 1)}${n + 1}`;
  await sheet.write(`</sheetData><autoFilter ref="${filter}"/>${SHEET_END}`);
  await sheet.close();

  await writeSummary(await zip.part('xl/worksheets/sheet2.xml'), summary, styles);
  await zip.file('xl/styles.xml', styles.xml());
  await zip.file('xl/workbook.xml', workbook(name, filter));
  await zip.finish();
  return n;
}

async function writeSummary(part: ZipPart, s: ExportSummary, styles: Styles) {
  let xml = sheetStart([24, 22, 22, 16, 16, 18], false);
  let r = 0;
  const tz = s.zone.tz;
  const when = (t: number | undefined): Cell =>
    t === undefined || !Number.isFinite(t) ? 'any time' : serial(wallClockDate(t, tz));
  const row = (values: Cell[], style: (i: number) => number, bold = false) => {
    r++;
    if (!values.length) return;
    xml += `<row r="${r}"${bold ? ` s="${Styles.BOLD}" customFormat="1"` : ''}>`;
    values.forEach((v, i) => (xml += cellXml(`<c r="${columnName(i)}`, String(r), style(i), v)));
    xml += '</row>';
  };
  const line = (values: Cell[], fmts: Array<string | undefined> = []) =>
    row(values, (i) => (fmts[i] ? styles.of(fmts[i]) : 0));
  const bold = (values: Cell[]) => row(values, () => Styles.BOLD, true);
  line(['rows', s.rows]);
  line(['range asked', when(s.range.from), when(s.range.to)], [undefined, DATE, DATE]);
  line(['rows created', s.rows ? when(s.first) : 'no rows', s.rows ? when(s.last) : null], [undefined, DATE, DATE]);
  line(['time zone', zoneText(s.zone).replace(/^zone /, '')]);
  if (s.totals.size) {
    line([]);
    // One row per column and currency: a sheet's SUM over a mixed column adds cents to paise.
    bold(['total', 'currency', 'amount', 'in minor units', 'unit']);
    for (const t of s.totals.values()) {
      const digits = minorDigits(t.currency) ?? 2;
      line(
        [
          t.column,
          t.currency || 'not given',
          t.currency ? t.sum / 10 ** digits : null,
          t.sum,
          minorUnits('', t.currency).trim(),
        ],
        [undefined, undefined, t.currency ? moneyFormat(t.currency) : undefined, INTEGER],
      );
    }
  }
  const customers = [...s.customers.values()];
  if (customers.length) {
    line([]);
    bold(['customer_id', 'rows', 'opening_balance', 'credits', 'debits', 'closing_balance']);
    const rupees = (p: number | undefined) => (p === undefined ? null : p / 100);
    for (const c of customers) {
      if (c.missing) line([c.id, c.missing]);
      else
        line(
          [
            c.id,
            c.rows,
            rupees(c.opening),
            rupees(c.credits),
            rupees(c.debits),
            rupees(c.closing),
            ...(unchanged(c) ? [unchanged(c)!.trim().slice(1, -1)] : []),
          ],
          [undefined, INTEGER, RUPEES, RUPEES, RUPEES, RUPEES],
        );
      // Many customers: the sheet goes out as it grows.
      if (xml.length > 65_536) {
        await part.write(xml);
        xml = '';
      }
    }
  }
  for (const section of s.sections) {
    line([]);
    bold(section.header);
    const code = { rupees: RUPEES, integer: INTEGER, date: DATE };
    const cell = (v: Cell, i: number): Cell => {
      const f = section.formats[i];
      if (typeof v !== 'number' || !f || f === 'integer') return v;
      return f === 'rupees' ? v / 100 : when(v);
    };
    for (const values of section.rows)
      line(
        values.map(cell),
        section.formats.map((f) => f && code[f]),
      );
  }
  await part.write(`${xml}</sheetData>${SHEET_END}`);
  await part.close();
}
