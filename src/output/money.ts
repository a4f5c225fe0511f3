import { amountOf } from '../contract/rules';
import { minorUnitName } from '../contract/values/amount';

interface Formatter {
  format: Intl.NumberFormat;
  digits: number;
  /** The same text by arithmetic, for whole amounts below 10^13 minor units; null where it would differ. */
  fast: ((minor: number) => string) | null;
}

/**
 * Intl's currency text rebuilt from its parts (sign and symbol around the number, group sizes,
 * separators), so an export does not pay Intl's formatting per cell. Trusted only if it gives Intl's
 * own text for a set of probes; else null and Intl formats every amount.
 */
function arithmetic(format: Intl.NumberFormat, digits: number): ((minor: number) => string) | null {
  const scale = 10 ** digits;
  const shape = (parts: Intl.NumberFormatPart[]) => {
    const first = parts.findIndex((p) => p.type === 'integer');
    const last = parts.findLastIndex((p) => p.type === 'integer' || p.type === 'fraction');
    const text = (ps: Intl.NumberFormatPart[]) => ps.map((p) => p.value).join('');
    return { before: text(parts.slice(0, first)), after: text(parts.slice(last + 1)) };
  };
  try {
    const probe = format.formatToParts(1234567890123 / scale);
    const ints = probe.filter((p) => p.type === 'integer').map((p) => p.value.length);
    const group = probe.find((p) => p.type === 'group')?.value ?? '';
    const decimal = probe.find((p) => p.type === 'decimal')?.value ?? '';
    const primary = ints.at(-1) ?? 0;
    const secondary = ints.length > 2 ? ints.at(-2)! : primary;
    const plus = shape(probe);
    const minus = shape(format.formatToParts(-1234567890123 / scale));
    if (!group || !primary || !secondary || (digits > 0 && !decimal)) return null;
    const fast = (minor: number) => {
      const sign = minor < 0 ? minus : plus;
      const abs = Math.abs(minor);
      let int = String(Math.floor(abs / scale));
      let grouped = '';
      if (int.length > primary) {
        grouped = group + int.slice(-primary);
        int = int.slice(0, -primary);
        while (int.length > secondary) {
          grouped = group + int.slice(-secondary) + grouped;
          int = int.slice(0, -secondary);
        }
      }
      const fraction = digits ? decimal + String(abs % scale).padStart(digits, '0') : '';
      return sign.before + int + grouped + fraction + sign.after;
    };
    const probes = [0, 1, -1, 7, 99, -100, 12345, 999999, 100000, -123456789, 1234567890123, -9999999999999];
    return probes.every((n) => fast(n) === format.format(n / scale)) ? fast : null;
  } catch {
    return null;
  }
}

// Built once per currency: constructing a formatter (or asking its options) costs more than formatting.
const formatters = new Map<string, Formatter | null>();

function formatter(currency: string): Formatter | null {
  if (!formatters.has(currency)) {
    try {
      const format = new Intl.NumberFormat(currency === 'INR' ? 'en-IN' : 'en-US', { style: 'currency', currency });
      const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
      formatters.set(currency, { format, digits, fast: arithmetic(format, digits) });
    } catch {
      formatters.set(currency, null);
    }
  }
  return formatters.get(currency) ?? null;
}

/** `₹500.00` from 50000 paise; '' for no amount; the raw text when it is not a number. */
export function formatMoneyShort(amount: unknown, currency?: unknown): string {
  if (amount === null || amount === undefined || amount === '') return '';
  const n = amountOf(amount);
  if (n === undefined) return String(amount);
  const code = typeof currency === 'string' && currency ? currency.toUpperCase() : '';
  const f = code ? formatter(code) : null;
  if (!f) return `${n} minor units${code ? ` ${code}` : ''}`;
  if (f.fast && Number.isInteger(n) && Math.abs(n) < 1e13 && !Object.is(n, -0)) return f.fast(n);
  return f.format.format(n / 10 ** f.digits);
}

/** `₹500.00 (50000 paise)`: what a person reads, and what the service counts. */
export function formatMoney(amount: unknown, currency?: unknown): string {
  const short = formatMoneyShort(amount, currency);
  const n = amountOf(amount);
  if (!short || n === undefined || short.endsWith('minor units') || /minor units \w+$/.test(short)) return short;
  return `${short} (${n} ${minorUnitName(String(currency))})`;
}

export { minorUnitName };

/** Digits after the decimal point in `currency` (2 for INR, 0 for JPY); undefined for an unknown code. */
export function minorDigits(currency: unknown): number | undefined {
  const code = typeof currency === 'string' && currency ? currency.toUpperCase() : '';
  return code ? formatter(code)?.digits : undefined;
}
