/*
 * Amounts and dates as banks write them: `1,00,000.00` (Indian grouping), `1.234,56` in SWIFT fields,
 * `DD/MM/YY`, `DD-MMM-YYYY`, ISO dates. Amounts become integer paise from their digits, never through a
 * float, so a paisa is never lost to rounding.
 */

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** Paise from a decimal amount (`1,00,000.50`, `250`, `12.5`); `decimal` is the decimal mark. Undefined if not one. */
export function paise(text: string, decimal: '.' | ',' = '.'): number | undefined {
  if (decimal === '.' && PLAIN.test(text)) return digits(text);
  let t = text.trim().replace(/^(INR|Rs\.?|\u20b9)\s*/i, '');
  if (decimal === ',') t = t.replace(/\./g, '').replace(',', '.');
  else t = t.replace(/,/g, '');
  const m = /^(\d{1,15})(?:\.(\d{0,2}))?$/.exec(t);
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** The common case, read without a copy: `1,00,000.00`, `250`, `12.5`. */
const PLAIN = /^\d[\d,]{0,20}(\.\d{1,2})?$/;
function digits(text: string): number {
  let whole = 0;
  let frac = -1;
  let scale = 10;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) frac = 0;
    else if (c !== 44) {
      if (frac < 0) whole = whole * 10 + (c - 48);
      else {
        frac += (c - 48) * scale;
        scale /= 10;
      }
    }
  }
  return whole * 100 + Math.max(frac, 0);
}

const two = (n: number) => String(n).padStart(2, '0');

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
function isoDay(y: number, m: number, d: number): string | undefined {
  if (m < 1 || m > 12 || d < 1) return undefined;
  const leap = m === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (d > DAYS[m - 1]! + (leap ? 1 : 0)) return undefined;
  return `${y}-${two(m)}-${two(d)}`;
}

/** A two-digit year as Indian banks mean it: this century. */
const fullYear = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));

// A statement's dates repeat entry after entry: each text is read once.
const seen = new Map<string, string | undefined>();

/** `YYYY-MM-DD` from the dates netbanking exports use: DD/MM/YY(YY), DD-MM-YYYY, DD-MMM-YY(YY), DD MMM YYYY, ISO. */
export function bankDay(text: string): string | undefined {
  if (seen.has(text)) return seen.get(text);
  if (seen.size > 4096) seen.clear();
  const day = readDay(text);
  seen.set(text, day);
  return day;
}

function readDay(text: string): string | undefined {
  const t = text.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(t);
  if (m) return isoDay(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/.exec(t);
  if (m) return isoDay(fullYear(m[3]!), Number(m[2]), Number(m[1]));
  m = /^(\d{1,2})[\s/-]([A-Za-z]{3})[a-z]*[\s/,-]+(\d{2}|\d{4})$/.exec(t);
  if (m) return isoDay(fullYear(m[3]!), MONTHS.indexOf(m[2]!.toUpperCase()) + 1, Number(m[1]));
  return undefined;
}

/** `YYYY-MM-DD` from a SWIFT `YYMMDD`. */
export function swiftDay(text: string): string | undefined {
  const m = /^(\d{2})(\d{2})(\d{2})$/.exec(text);
  return m ? isoDay(2000 + Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
}

/** Whole days from `a` to `b` (both `YYYY-MM-DD`). */
export const daysBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000);
