import { guardFormula, quoteField } from './csv';
import { wallClockDate } from './time';
import {
  DATE,
  INTEGER,
  RUPEES,
  SHEET_END,
  Styles,
  XML_HEAD,
  cellXml,
  columnName,
  serial,
  sheetStart,
  xmlText,
} from './xlsx-xml';
import type { Cell } from './xlsx-xml';
import { ZipWriter } from './zip';

/*
 * A workbook of several sheets of one table each (a report, not a list): cells typed as every export's
 * are (paise as integers, rupees with the ₹ format, instants as dates in the zone, days as dates), text
 * always an inline string, never a formula. The same tables go to CSV with formula-looking cells quoted.
 */

/** How a column's numbers read: paise as integers, paise shown as rupees, an instant (Unix s), a day (`YYYY-MM-DD`). */
export type ColumnFormat = 'integer' | 'rupees' | 'instant' | 'day' | undefined;

export interface Table {
  name: string;
  header: string[];
  formats: ColumnFormat[];
  rows: Cell[][];
}

const DAY = 'yyyy-mm-dd';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument.spreadsheetml';

const contentTypes = (n: number) =>
  `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  `<Override PartName="/xl/workbook.xml" ContentType="${CT}.sheet.main+xml"/>` +
  Array.from(
    { length: n },
    (_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="${CT}.worksheet+xml"/>`,
  ).join('') +
  `<Override PartName="/xl/styles.xml" ContentType="${CT}.styles+xml"/></Types>`;
const rootRels =
  `${XML_HEAD}<Relationships xmlns="${PKG_REL}">` +
  `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const bookRels = (n: number) =>
  `${XML_HEAD}<Relationships xmlns="${PKG_REL}">` +
  Array.from(
    { length: n },
    (_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
  ).join('') +
  `<Relationship Id="rId${n + 1}" Type="${REL}/styles" Target="styles.xml"/></Relationships>`;
const book = (names: string[]) =>
  `${XML_HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><bookViews><workbookView/></bookViews><sheets>` +
  names
    .map((n, i) => `<sheet name="${xmlText(n).replace(/"/g, '&quot;')}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
    .join('') +
  '</sheets></workbook>';

/** A cell of a column in its format: the number a spreadsheet shows it as. */
function typed(v: Cell, format: ColumnFormat, tz: string): Cell {
  if (v === null || format === undefined || format === 'integer') return v;
  if (format === 'day')
    return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? serial(new Date(`${v}T00:00:00Z`)) : v;
  if (typeof v !== 'number') return v;
  return format === 'rupees' ? v / 100 : serial(wallClockDate(v, tz));
}

/** The tables as a workbook, a sheet each (frozen header, filter, widths from the header and first rows). */
export async function writeWorkbook(out: NodeJS.WritableStream, tables: Table[], tz: string): Promise<void> {
  const zip = new ZipWriter(out);
  const styles = new Styles();
  const codes = { integer: INTEGER, rupees: RUPEES, instant: DATE, day: DAY };
  await zip.file('[Content_Types].xml', contentTypes(tables.length));
  await zip.file('_rels/.rels', rootRels);
  await zip.file('xl/_rels/workbook.xml.rels', bookRels(tables.length));
  for (const [i, t] of tables.entries()) {
    const part = await zip.part(`xl/worksheets/sheet${i + 1}.xml`);
    const style = t.formats.map((f) => (f ? styles.of(codes[f]) : 0));
    const widths = t.header.map((h, c) =>
      Math.min(
        50,
        Math.max(
          h.length + 3,
          ...t.rows.slice(0, 100).map((r) => (t.formats[c] === 'instant' ? 19 : String(r[c] ?? '').length + 2)),
        ),
      ),
    );
    // Every sheet's header is frozen; only the first is the selected tab.
    const start = sheetStart(widths, true);
    let xml = `${i === 0 ? start : start.replace('tabSelected="1" ', '')}<row r="1" s="${Styles.BOLD}" customFormat="1">`;
    t.header.forEach((h, c) => (xml += cellXml(`<c r="${columnName(c)}`, '1', Styles.BOLD, h)));
    xml += '</row>';
    for (const [r, row] of t.rows.entries()) {
      const n = String(r + 2);
      xml += `<row r="${n}">`;
      row.forEach((v, c) => (xml += cellXml(`<c r="${columnName(c)}`, n, style[c]!, typed(v, t.formats[c], tz))));
      xml += '</row>';
      if (xml.length > 65_536) {
        await part.write(xml);
        xml = '';
      }
    }
    const last = `${columnName(Math.max(t.header.length, 1) - 1)}${t.rows.length + 1}`;
    await part.write(`${xml}</sheetData><autoFilter ref="A1:${last}"/>${SHEET_END}`);
    await part.close();
  }
  await zip.file('xl/styles.xml', styles.xml());
  await zip.file('xl/workbook.xml', book(tables.map((t) => t.name)));
  await zip.finish();
}

/** One table as CSV: a header, then its rows; text a spreadsheet would run as a formula gets a leading `'`. */
export function tableCsv(t: Table): string {
  const field = (v: Cell) => (v === null ? '' : typeof v === 'string' ? quoteField(guardFormula(v)) : String(v));
  return [t.header.map(quoteField).join(','), ...t.rows.map((r) => r.map(field).join(','))].join('\n') + '\n';
}
