import enums from 'exceljs/lib/doc/enums.js';
import utils from 'exceljs/lib/utils/utils.js';

type Cell = string | number | boolean | Date | null;
type Style = { numFmt?: string };
interface Styles {
  addStyleModel(style: Style, type: number): number;
}

const { Null, Number: NUMBER, String: STRING, Date: DATE, Boolean: BOOLEAN } = enums.ValueType;
function typeOf(v: Cell): number {
  if (v === null) return Null;
  if (typeof v === 'string') return STRING;
  if (typeof v === 'number') return NUMBER;
  return v instanceof Date ? DATE : BOOLEAN;
}

/**
 * A number's text as String() gives it, but made fresh: V8 puts the strings that String() and template
 * literals make from numbers in a cache in the old generation, so each one made per cell is old
 * garbage at once (a few hundred bytes per row, filling the heap between full collections).
 */
const text = (v: number) => (Number.isFinite(v) ? JSON.stringify(v) : String(v));

function letters(n: number): string {
  let s = '';
  for (; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/**
 * A data row's XML exactly as exceljs's streaming writer renders it (RowXform and CellXform: inline
 * strings, the same escaping, date serials and style ids), without its Row, Cell and model objects and
 * XML stream: those were ~17 KB of short-lived objects per row and most of an export's CPU time, and
 * the more often V8 collects its young generation, the more of each page outlives it as old garbage.
 * Returns '' for a row with no value (exceljs skips such a row too).
 */
export function rowXml(styles: Styles, count: number) {
  const cols = Array.from({ length: count }, (_, i) => letters(i + 1));
  const spans = `" spans="1:${count}" x14ac:dyDescent="0.25">`;
  return (n: number, values: Cell[], style: (i: number) => Style): string => {
    const r = text(n);
    let xml = '';
    let any = false;
    for (let i = 0; i < count; i++) {
      const v = values[i] ?? null;
      const type = typeOf(v);
      const id = styles.addStyleModel(style(i), type);
      if (type === Null && !id) continue;
      any ||= type !== Null;
      xml += `<c r="${cols[i]}${r}"${id ? ` s="${id}"` : ''}`;
      if (type === Null) xml += '/>';
      else if (type === BOOLEAN) xml += ` t="b"><v>${v ? 1 : 0}</v></c>`;
      else if (type === STRING) xml += ` t="str"><v>${utils.xmlEncode(v as string)}</v></c>`;
      else {
        const num = type === DATE ? utils.dateToExcel(v as Date) : (v as number);
        // A number's text (digits, `.`, `-`, `e+`, NaN, Infinity) has nothing XML would escape.
        xml += `><v>${text(num)}</v></c>`;
      }
    }
    return any ? `<row r="${r}${spans}${xml}</row>` : '';
  };
}
