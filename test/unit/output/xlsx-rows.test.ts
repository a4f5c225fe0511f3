import { createRequire } from 'node:module';
import { Workbook } from 'exceljs';
import { describe, expect, it } from 'vitest';
import { rowXml } from '../../../src/output/xlsx-rows';

type Cell = string | number | boolean | Date | null;
type Style = { numFmt?: string };
interface Styles {
  addStyleModel(style: Style, type?: number): number;
}
interface Xform {
  prepare(model: unknown, options: object): void;
  toXml(model: unknown): string;
}

const require = createRequire(import.meta.url);
const StylesXform = require('exceljs/lib/xlsx/xform/style/styles-xform.js') as new (init: boolean) => Styles;
const RowXform = require('exceljs/lib/xlsx/xform/sheet/row-xform.js') as new () => Xform;

/** What exceljs's streaming writer wrote for a row (WorksheetWriter._writeRow), '' for a row it skips. */
function exceljsRows(rows: Cell[][], styleOf: (r: number, c: number) => Style): string[] {
  const styles = new StylesXform(true);
  const sheet = new Workbook().addWorksheet('s');
  const xform = new RowXform();
  const plainRow = {};
  return rows.map((values, r) => {
    const row = sheet.getRow(r + 2);
    row.values = values;
    (row as unknown as { style: object }).style = plainRow;
    values.forEach((_, c) => (row.getCell(c + 1).style = styleOf(r, c)));
    if (!row.hasValues) return '';
    const model = row.model;
    xform.prepare(model, { styles, hyperlinks: [], merges: [], formulae: {}, siFormulae: 0, comments: [] });
    return xform.toXml(model);
  });
}

function ourRows(rows: Cell[][], styleOf: (r: number, c: number) => Style): string[] {
  const xml = rowXml(new StylesXform(true), rows[0]!.length);
  return rows.map((values, r) => xml(r + 2, values, (c) => styleOf(r, c)));
}

describe('xlsx rows', () => {
  it('are the XML exceljs writes: types, escaping, dates, styles, empty and valueless rows', () => {
    const formats: Style[] = [{}, { numFmt: '0' }, { numFmt: 'yyyy-mm-dd hh:mm:ss' }, { numFmt: '"₹"#,##0.00' }];
    const strings = ['plain', '<a&b>"q"\'s\'', 'ctl\x01\x02\x0b\x7f\ttab\nnl\rcr', '', '  lead', '😀 ₹ ü', ']]>'];
    const numbers = [0, -0, 7, -5, 1.5, 46349.92240740741, 2 ** 53 + 2, 1e21, 1e-7, NaN, Infinity];
    const dates = [new Date(Date.UTC(2024, 2, 31, 18, 29, 59)), new Date(0), new Date(Number.NaN)];
    const pick = <T>(xs: T[], i: number) => xs[i % xs.length]!;
    const rows: Cell[][] = Array.from({ length: 60 }, (_, r) => [
      pick(strings, r),
      pick(numbers, r),
      r % 5 ? pick(dates, r) : null,
      r % 3 === 0 ? null : pick(numbers, r + 3),
      r % 4 === 0,
      r % 7 === 0 ? null : pick(strings, r + 2),
      r % 2 ? 'x' : null,
      ...new Array<Cell>(20).fill(null),
      'z',
    ]);
    rows.push(rows[0]!.map(() => null));
    // Shared style objects per format, as the writer keeps them; unstyled nulls are left out, styled ones kept.
    const styleOf = (r: number, c: number) => (c === 7 ? formats[0]! : pick(formats, r + c));
    const theirs = exceljsRows(rows, styleOf);
    expect(theirs.at(-1)).toBe('');
    expect(theirs[1]).toContain('<c r="AB3" t="str"><v>z</v></c>');
    expect(ourRows(rows, styleOf)).toEqual(theirs);
  });
});
