import { amountOf } from '../contract/rules';
import { MINOR_UNIT, minorUnitName } from '../contract/values/amount';

interface Formatter {
  /** Intl's formatter, made on first need: the first one a process makes pays for ICU's set-up. */
  intl: () => Intl.NumberFormat;
  digits: number;
  /** The same text by arithmetic, for whole amounts below 10^13 minor units; null where it would differ. */
  fast: ((minor: number) => string) | null;
}

/** How Intl writes a currency amount: what stands around the number, group sizes and separators. */
interface Shape {
  plus: { before: string; after: string };
  minus: { before: string; after: string };
  group: string;
  decimal: string;
  /** Digits in the last group, and in each group before it (3 and 2 in India: 12,34,567). */
  primary: number;
  secondary: number;
}

/**
 * Shapes known without asking Intl, for the currency the wallet and almost every order is in: an
 * export that formats only these never starts ICU. The money unit test holds each to Intl's own text.
 */
const KNOWN: Record<string, { digits: number; shape: Shape }> = {
  INR: {
    digits: 2,
    shape: {
      plus: { before: '₹', after: '' },
      minus: { before: '-₹', after: '' },
      group: ',',
      decimal: '.',
      primary: 3,
      secondary: 2,
    },
  },
};

/** Intl's currency text rebuilt from its parts, or null where the parts do not say enough. */
function shapeOf(format: Intl.NumberFormat, digits: number): Shape | null {
  const scale = 10 ** digits;
  const around = (parts: Intl.NumberFormatPart[]) => {
    const first = parts.findIndex((p) => p.type === 'integer');
    const last = parts.findLastIndex((p) => p.type === 'integer' || p.type === 'fraction');
    const text = (ps: Intl.NumberFormatPart[]) => ps.map((p) => p.value).join('');
    return { before: text(parts.slice(0, first)), after: text(parts.slice(last + 1)) };
  };
  const probe = format.formatToParts(1234567890123 / scale);
  const ints = probe.filter((p) => p.type === 'integer').map((p) => p.value.length);
  const group = probe.find((p) => p.type === 'group')?.value ?? '';
  const decimal = probe.find((p) => p.type === 'decimal')?.value ?? '';
  const primary = ints.at(-1) ?? 0;
  const secondary = ints.length > 2 ? ints.at(-2)! : primary;
  if (!group || !primary || !secondary || (digits > 0 && !decimal)) return null;
  return {
    plus: around(probe),
    minus: around(format.formatToParts(-1234567890123 / scale)),
    group,
    decimal,
    primary,
    secondary,
  };
}

/** Text for whole minor units by arithmetic, in the shape given. */
function arithmetic(shape: Shape, digits: number): (minor: number) => string {
  const { group, decimal, primary, secondary } = shape;
  const scale = 10 ** digits;
  // Every fraction's text, made once (100 of them for two digits).
  const fractions = Array.from({ length: scale }, (_, i) => (digits ? decimal + String(i).padStart(digits, '0') : ''));
  return (minor) => {
    const sign = minor < 0 ? shape.minus : shape.plus;
    const abs = Math.abs(minor);
    const whole = Math.floor(abs / scale);
    let int = String(whole);
    let grouped = '';
    if (int.length > primary) {
      grouped = group + int.slice(-primary);
      int = int.slice(0, -primary);
      while (int.length > secondary) {
        grouped = group + int.slice(-secondary) + grouped;
        int = int.slice(0, -secondary);
      }
    }
    return sign.before + int + grouped + fractions[abs - whole * scale]! + sign.after;
  };
}

const PROBES = [0, 1, -1, 7, 99, -100, 12345, 999999, 100000, -123456789, 1234567890123, -9999999999999];

/** Arithmetic trusted only if it gives Intl's own text for a set of probes; else null and Intl formats every amount. */
function checkedArithmetic(format: Intl.NumberFormat, digits: number): ((minor: number) => string) | null {
  try {
    const shape = shapeOf(format, digits);
    const fast = shape && arithmetic(shape, digits);
    return fast && PROBES.every((n) => fast(n) === format.format(n / 10 ** digits)) ? fast : null;
  } catch {
    return null;
  }
}

const localeOf = (currency: string) => (currency === 'INR' ? 'en-IN' : 'en-US');

// Built once per currency: constructing a formatter (or asking its options) costs more than formatting.
const formatters = new Map<string, Formatter | null>();

function formatter(currency: string): Formatter | null {
  if (!formatters.has(currency)) {
    const known = KNOWN[currency];
    let made: Intl.NumberFormat | undefined;
    const intl = () => (made ??= new Intl.NumberFormat(localeOf(currency), { style: 'currency', currency }));
    if (known) formatters.set(currency, { intl, digits: known.digits, fast: arithmetic(known.shape, known.digits) });
    else {
      try {
        const digits = intl().resolvedOptions().maximumFractionDigits ?? 2;
        formatters.set(currency, { intl, digits, fast: checkedArithmetic(intl(), digits) });
      } catch {
        formatters.set(currency, null);
      }
    }
  }
  return formatters.get(currency) ?? null;
}

// The currency of the last amount asked about, as given, and its formatter: an export asks for the same one every time.
let last: { currency: unknown; code: string; f: Formatter | null } = { currency: undefined, code: '', f: null };
function lookUp(currency: unknown): { code: string; f: Formatter | null } {
  if (currency !== last.currency) {
    const code = typeof currency === 'string' && currency ? currency.toUpperCase() : '';
    last = { currency, code, f: code ? formatter(code) : null };
  }
  return last;
}

/** `₹500.00` from 50000 paise; '' for no amount; the raw text when it is not a number. */
export function formatMoneyShort(amount: unknown, currency?: unknown): string {
  if (amount === null || amount === undefined || amount === '') return '';
  const n = amountOf(amount);
  if (n === undefined) return String(amount);
  const { code, f } = lookUp(currency);
  if (!f) return minorUnits(n, code);
  if (f.fast && Number.isInteger(n) && Math.abs(n) < 1e13 && !Object.is(n, -0)) return f.fast(n);
  return f.intl().format(n / 10 ** f.digits);
}

/**
 * A figure in the smallest currency unit, named as such: `15157000 paise`, `12345 cents`, else
 * `12345 minor units of XYZ` (never `12345 USD`, which reads as dollars). The one place for this rule.
 */
export function minorUnits(amount: unknown, currency?: unknown): string {
  const code = typeof currency === 'string' ? currency.trim().toUpperCase() : '';
  const name = MINOR_UNIT[code];
  if (name) return `${String(amount)} ${name}`;
  return `${String(amount)} minor units${/^[A-Z]{3}$/.test(code) ? ` of ${code}` : ''}`;
}

/** `₹500.00 (50000 paise)`: what a person reads, and what the service counts. */
export function formatMoney(amount: unknown, currency?: unknown): string {
  const short = formatMoneyShort(amount, currency);
  const n = amountOf(amount);
  if (!short || n === undefined || short.includes('minor units')) return short;
  return `${short} (${minorUnits(n, currency)})`;
}

export { minorUnitName };

/** Digits after the decimal point in `currency` (2 for INR, 0 for JPY); undefined for an unknown code. */
export function minorDigits(currency: unknown): number | undefined {
  return lookUp(currency).f?.digits;
}
