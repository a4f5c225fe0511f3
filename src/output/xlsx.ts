import { once } from 'node:events';
import type { Style, Worksheet } from 'exceljs';
import { wallClockDate } from './time';
import { cellReader, currencyReader } from './cells';
import type { Column, ResourceKind } from './columns';
import { minorDigits, minorUnits } from './money';
import { zoneText } from './summary';
import { crossed, pagesOf } from '../rows/pages';
import type { ExportSummary } from './summary';

const SHEET: Partial<Record<ResourceKind, string>> = {
  order: 'Orders',
  payment: 'Payments',
  customer_transaction: 'Statement',
};
const DATE = 'yyyy-mm-dd hh:mm:ss';
const INTEGER = '0';
const RUPEES = '"₹"#,##0.00';
const moneyFormat = (currency: string) =>
  currency === 'INR' ? RUPEES : `"${currency.replace(/"/g, '')} "#,##0.${'0'.repeat(minorDigits(currency) ?? 2)}`;

type Cell = string | number | boolean | Date | null;

/** A column of the sheet: how its cell is typed and formatted (readers compiled once per export). */
function cellOf(
  col: Column,
  kind: ResourceKind,
): { value: (row: unknown) => Cell; numFmt?: (row: unknown) => string | undefined } {
  const d = col.derived;
  if (d?.as === 'display') {
    const read = cellReader(d.from);
    const currency = currencyReader(d.from, kind);
    return {
      value: (row) => {
        const v = read(row);
        const digits = minorDigits(currency(row));
        return v === null || v === undefined || v === '' || !Number.isFinite(Number(v))
          ? null
          : Number(v) / 10 ** (digits ?? 2);
      },
      numFmt: (row) => moneyFormat(currency(row) ?? 'INR'),
    };
  }
  if (d?.as === 'local') {
    const read = cellReader(d.from);
    return { value: (row) => wallClockDate(read(row), d.at.tz) ?? null, numFmt: () => DATE };
  }
  const read = cellReader(col);
  const numeric = col.type === 'money' || col.type === 'time';
  return {
    value: (row) => {
      const v = read(row);
      if (v === null || v === undefined) return null;
      if (typeof v === 'number' || typeof v === 'boolean') return v;
      if (numeric && /^-?\d+$/.test(String(v))) return Number(v);
      return typeof v === 'object' ? JSON.stringify(v) : String(v);
    },
    numFmt: numeric ? () => INTEGER : undefined,
  };
}

/** A width from the header and the first rows' cells: wide enough to read, never a wall of one column. */
function width(col: Column, cells: Cell[]): number {
  const lengths = cells.map((c) =>
    c instanceof Date ? 19 : typeof c === 'number' ? String(c).length + 4 : String(c ?? '').length,
  );
  return Math.min(50, Math.max(col.header.length + 3, ...lengths.map((l) => l + 2)));
}

/**
 * Lets the zip writer catch up: its deflate runs off the main thread, and the rows come faster than
 * it compresses them. A turn of the event loop lets it take what it has; a full file stream is waited for.
 */
async function drain(out: NodeJS.WritableStream & { writableNeedDrain?: boolean }) {
  await new Promise((resolve) => setImmediate(resolve));
  if (out.writableNeedDrain) await once(out, 'drain');
}

/**
 * A real workbook, streamed (exceljs's WorkbookWriter: each row is written out when committed, so
 * memory stays flat): typed cells, frozen header, filter over every row, widths from the first page,
 * then a Summary sheet.
 */
export async function writeXlsx(
  out: NodeJS.WritableStream,
  kind: ResourceKind,
  columns: Column[],
  items: AsyncIterable<unknown> | Iterable<unknown>,
  summary: ExportSummary,
): Promise<number> {
  const { default: ExcelJS } = await import('exceljs');
  // Deflate level 1: a quarter larger than the default level 6, at a third of its work.
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out as never,
    useStyles: true,
    useSharedStrings: false,
    zip: { zlib: { level: 1 } },
  } as ConstructorParameters<typeof ExcelJS.stream.xlsx.WorkbookWriter>[0]);
  const sheet = book.addWorksheet(SHEET[kind] ?? 'Rows', { views: [{ state: 'frozen', ySplit: 1 }] });
  const cells = columns.map((c) => cellOf(c, kind));
  const first: unknown[] = [];
  let n = 0;
  // One style object per format, shared by every cell that has it: the writer remembers a style object
  // it has seen, and works each new one out again.
  const styles = new Map<string, Partial<Style>>();
  const styleOf = (fmt = '') => styles.get(fmt) ?? styles.set(fmt, fmt ? { numFmt: fmt } : {}).get(fmt)!;
  const add = (row: unknown) => {
    n++;
    const r = sheet.addRow(cells.map((c) => c.value(row)));
    cells.forEach((c, i) => (r.getCell(i + 1).style = styleOf(c.numFmt?.(row))));
    r.commit();
  };
  const start = () => {
    sheet.columns = columns.map((col, i) => ({
      header: col.header,
      key: col.key,
      width: width(
        col,
        first.map((row) => cells[i]!.value(row)),
      ),
    }));
    const header = sheet.getRow(1);
    header.font = { bold: true };
    header.commit();
    for (const row of first) add(row);
  };
  for await (const page of pagesOf(items)) {
    const before = n;
    for (const row of page) {
      if (first.length < 100) {
        first.push(row);
        if (first.length === 100) start();
      } else add(row);
    }
    if (crossed(before, n, 100)) await drain(out);
  }
  if (first.length < 100) start();
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: n + 1, column: Math.max(columns.length, 1) } };
  sheet.commit();
  writeSummary(book.addWorksheet('Summary'), summary);
  await book.commit();
  return n;
}

function writeSummary(sheet: Worksheet, s: ExportSummary) {
  sheet.columns = [{ width: 24 }, { width: 22 }, { width: 22 }, { width: 16 }, { width: 16 }, { width: 18 }];
  const tz = s.zone.tz;
  const when = (t: number | undefined) => (t === undefined || !Number.isFinite(t) ? 'any time' : wallClockDate(t, tz)!);
  const line = (values: Cell[], fmts: Array<string | undefined> = []) => {
    const r = sheet.addRow(values);
    fmts.forEach((f, i) => f && (r.getCell(i + 1).numFmt = f));
    r.commit();
  };
  const bold = (values: Cell[]) => {
    const r = sheet.addRow(values);
    r.font = { bold: true };
    r.commit();
  };
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
    const r = (p: number | undefined) => (p === undefined ? null : p / 100);
    for (const c of customers) {
      if (c.missing) line([c.id, c.missing]);
      else
        line(
          [c.id, c.rows, r(c.opening), r(c.credits), r(c.debits), r(c.closing)],
          [undefined, INTEGER, RUPEES, RUPEES, RUPEES, RUPEES],
        );
    }
  }
  sheet.commit();
}
