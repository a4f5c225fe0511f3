import { minorDigits } from './money';

/* The XML parts of an xlsx workbook (ECMA-376 SpreadsheetML): cells, styles, sheet and workbook frames. */

export const DATE = 'yyyy-mm-dd hh:mm:ss';
export const INTEGER = '0';
export const RUPEES = '"₹"#,##0.00';
export const moneyFormat = (currency: string) => {
  if (currency === 'INR') return RUPEES;
  const digits = minorDigits(currency) ?? 2;
  return `"${currency.replace(/"/g, '')} "#,##0${digits ? `.${'0'.repeat(digits)}` : ''}`;
};

/** A cell's value: text, a number (dates are numbers with a date format), a boolean, or no cell. */
export type Cell = string | number | boolean | null;

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
 * A number's text, as String gives it. V8 keeps the text of the numbers it turns into text in a cache
 * that young-generation collections treat as live: a fraction (a date's serial day, rupees) in every
 * row had its text promoted, and the old generation of a long export filled with them until its next
 * full collection. JSON.stringify writes the same text for a finite number without that cache.
 */
const numberText = (v: number) => (Number.isInteger(v) ? String(v) : JSON.stringify(v));

/**
 * A cell: `start` is `<c r="` and its column's letters, `r` the row number. Text is an inline string,
 * never a formula whatever it starts with, its edge whitespace kept; null (and a number that is not
 * finite) is no cell.
 */
export function cellXml(start: string, r: string, s: number, v: Cell): string {
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) ? start + r + open('n', s) + numberText(v) + '</v></c>' : '';
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
export function columnName(i: number): string {
  let name = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** Excel's serial day number (days since 1899-12-30) of a Date whose UTC fields are the wall-clock time. */
export const serial = (d: Date | undefined) => (d === undefined ? null : 25569 + d.getTime() / 86_400_000);

/**
 * The styles cells use (cellXfs): 0 plain, 1 bold (headers), then one per number format, numbered
 * as first asked for; written after the sheets, when every currency's format is known.
 */
export class Styles {
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

export const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument.spreadsheetml';

export const CONTENT_TYPES =
  `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  `<Override PartName="/xl/workbook.xml" ContentType="${CT}.sheet.main+xml"/>` +
  `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${CT}.worksheet+xml"/>` +
  `<Override PartName="/xl/worksheets/sheet2.xml" ContentType="${CT}.worksheet+xml"/>` +
  `<Override PartName="/xl/styles.xml" ContentType="${CT}.styles+xml"/></Types>`;
export const ROOT_RELS =
  `${XML_HEAD}<Relationships xmlns="${PKG_REL}">` +
  `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
export const BOOK_RELS =
  `${XML_HEAD}<Relationships xmlns="${PKG_REL}">` +
  `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
  `<Relationship Id="rId2" Type="${REL}/worksheet" Target="worksheets/sheet2.xml"/>` +
  `<Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/></Relationships>`;
export const SHEET_END =
  '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>';

/** A worksheet's start, up to its first row: views (a frozen header row), column widths. */
export function sheetStart(widths: number[], frozen: boolean): string {
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

export function workbook(name: string, filter: string): string {
  const sheet = (n: string, i: number) => `<sheet name="${xmlAttr(n)}" sheetId="${i}" r:id="rId${i}"/>`;
  const quoted = `'${name.replace(/'/g, "''")}'`;
  return (
    `${XML_HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><bookViews><workbookView/></bookViews>` +
    `<sheets>${sheet(name, 1)}${sheet('Summary', 2)}</sheets>` +
    '<definedNames><definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">' +
    `${xmlText(`${quoted}!${filter.replace(/([A-Z]+)(\d+)/g, '$$$1$$$2')}`)}</definedName></definedNames></workbook>`
  );
}
