import { wallClockDate } from './time';
import { cellReader, currencyReader } from './cells';
import type { Column, ResourceKind } from './columns';
import { minorDigits, minorUnits } from './money';
import { unchanged, zoneText } from './summary';
import type { ExportSummary } from './summary';
import { pagesOf } from '../rows/pages';
import { ZipWriter } from './zip';
import type { ZipPart } from './zip';

/*
 * An xlsx workbook written from scratch and streamed: an xlsx is a zip of a few XML parts
 * (ECMA-376 SpreadsheetML). The data sheet goes out row by row as rows come (text as inline strings,
 * so no shared-strings table is held), then the Summary sheet, then the styles the cells used.
 */

const SHEET: Partial<Record<ResourceKind, string>> = {
  order: 'Orders',
  payment: 'Payments',
  customer_transaction: 'Statement',
};
const DATE = 'yyyy-mm-dd hh:mm:ss';
const INTEGER = '0';
const RUPEES = '"₹"#,##0.00';
const moneyFormat = (currency: string) => {
  if (currency === 'INR') return RUPEES;
  const digits = minorDigits(currency) ?? 2;
  return `"${currency.replace(/"/g, '')} "#,##0${digits ? `.${'0'.repeat(digits)}` : ''}`;
};

/** A cell's value: text, a number (dates are numbers with a date format), a boolean, or no cell. */
type Cell = string | number | boolean | null;

// What XML 1.0 cannot carry (most C0 controls, U+FFFE/U+FFFF, a lone surrogate: stripped; DEL, as
// before), what must be escaped (& < >; CR, which a parser would turn into LF), and text that a
// spreadsheet would decode as its own `_xHHHH_` escape (each such underscore escaped as `_x005F_`,
// so it reads back as written).
const XML_CARE = /[&<>\r\x00-\x08\x0B\x0C\x0E-\x1F\x7F\uFFFE\uFFFF\uD800-\uDFFF]|_(?=x[0-9A-Fa-f]{4}_)/u;
const XML_CARE_ALL = new RegExp(XML_CARE.source, 'gu');
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;', _: '_x005F_' };

/** Text as the content of an XML element. */
export function xmlText(text: string): string {
  if (!XML_CARE.test(text)) return text;
  return text.replace(XML_CARE_ALL, (m) => ENTITIES[m] ?? '');
}

/** Text as an XML attribute value (in double quotes). */
const xmlAttr = (text: string) => xmlText(text).replace(/"/g, '&quot;');

// What follows a cell's reference, up to its value, by style: made once per style, as cells are
// written a million at a time (a cell is then five pieces of text: start, row, this, value, end).
const opens = { n: [] as string[], t: [] as string[], p: [] as string[], b: [] as string[] };
function open(kind: keyof typeof opens, s: number): string {
  let text = opens[kind][s];
  if (text === undefined) {
    const style = s ? ` s="${s}"` : '';
    text = opens[kind][s] = {
      n: `"${style}><v>`,
      t: `"${style} t="inlineStr"><is><t>`,
      p: `"${style} t="inlineStr"><is><t xml:space="preserve">`,
      b: `"${style} t="b"><v>`,
    }[kind];
  }
  return text;
}

/**
 * A cell: `start` is `<c r="` and its column's letters, `r` the row number. Text is an inline string,
 * never a formula whatever it starts with, its edge whitespace kept; null (and a number that is not
 * finite) is no cell.
 */
function cellXml(start: string, r: string, s: number, v: Cell): string {
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) ? start + r + open('n', s) + v + '</v></c>' : '';
    case 'string': {
      const edge = v.length > 0 && (v.charCodeAt(0) <= 32 || v.charCodeAt(v.length - 1) <= 32);
      return start + r + open(edge ? 'p' : 't', s) + xmlText(v) + '</t></is></c>';
    }
    case 'boolean':
      return start + r + open('b', s) + (v ? '1' : '0') + '</v></c>';
    default:
      return '';
  }
}

/** `A`, `B`, ... `Z`, `AA`: a column's letters from its index. */
function columnName(i: number): string {
  let name = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** Excel's serial day number (days since 1899-12-30) of a Date whose UTC fields are the wall-clock time. */
const serial = (d: Date | undefined) => (d === undefined ? null : 25569 + d.getTime() / 86_400_000);

/**
 * The styles cells use (cellXfs): 0 plain, 1 bold (headers), then one per number format, numbered
 * as first asked for; written after the sheets, when every currency's format is known.
 */
class Styles {
  static readonly BOLD = 1;
  private readonly xfs = [
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>',
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>',
  ];
  private readonly formats: string[] = [];
  private readonly ids = new Map<string, number>();

  /** The style of cells in number format `code`. */
  of(code: string): number {
    let id = this.ids.get(code);
    if (id === undefined) {
      // "0" is built in (1); others are numbered from 164, as Excel does.
      const fmt = code === INTEGER ? 1 : 164 + this.formats.length;
      if (fmt >= 164) this.formats.push(`<numFmt numFmtId="${fmt}" formatCode="${xmlAttr(code)}"/>`);
      id = this.xfs.push(`<xf numFmtId="${fmt}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`);
      id--;
      this.ids.set(code, id);
    }
    return id;
  }

  xml(): string {
    const fmts = this.formats.length
      ? `<numFmts count="${this.formats.length}">${this.formats.join('')}</numFmts>`
      : '';
    return (
      `${XML_HEAD}<styleSheet xmlns="${MAIN}">${fmts}` +
      '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
      '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      `<cellXfs count="${this.xfs.length}">${this.xfs.join('')}</cellXfs>` +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>'
    );
  }
}

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

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument.spreadsheetml';

const CONTENT_TYPES =
  `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  `<Override PartName="/xl/workbook.xml" ContentType="${CT}.sheet.main+xml"/>` +
  `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${CT}.worksheet+xml"/>` +
  `<Override PartName="/xl/worksheets/sheet2.xml" ContentType="${CT}.worksheet+xml"/>` +
  `<Override PartName="/xl/styles.xml" ContentType="${CT}.styles+xml"/></Types>`;
const ROOT_RELS =
  `${XML_HEAD}<Relationships xmlns="${PKG_REL}">` +
  `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const BOOK_RELS =
  `${XML_HEAD}<Relationships xmlns="${PKG_REL}">` +
  `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
  `<Relationship Id="rId2" Type="${REL}/worksheet" Target="worksheets/sheet2.xml"/>` +
  `<Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/></Relationships>`;
const SHEET_END =
  '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>';

/** A worksheet's start, up to its first row: views (a frozen header row), column widths. */
function sheetStart(widths: number[], frozen: boolean): string {
  const pane = frozen
    ? '<sheetView tabSelected="1" workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' +
      '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView>'
    : '<sheetView workbookViewId="0"/>';
  const cols = widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('');
  return (
    `${XML_HEAD}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><sheetViews>${pane}</sheetViews>` +
    `<sheetFormatPr defaultRowHeight="15"/>${cols ? `<cols>${cols}</cols>` : ''}<sheetData>`
  );
}

function workbook(name: string, filter: string): string {
  const sheet = (n: string, i: number) => `<sheet name="${xmlAttr(n)}" sheetId="${i}" r:id="rId${i}"/>`;
  const quoted = `'${name.replace(/'/g, "''")}'`;
  return (
    `${XML_HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><bookViews><workbookView/></bookViews>` +
    `<sheets>${sheet(name, 1)}${sheet('Summary', 2)}</sheets>` +
    '<definedNames><definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">' +
    `${xmlText(`${quoted}!${filter.replace(/([A-Z]+)(\d+)/g, '$$$1$$$2')}`)}</definedName></definedNames></workbook>`
  );
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
  const name = SHEET[kind] ?? 'Rows';
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
  await part.write(`${xml}</sheetData>${SHEET_END}`);
  await part.close();
}
