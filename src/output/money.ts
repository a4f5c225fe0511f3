import { minorUnitName } from '../contract/values/amount';

interface Formatter {
  format: Intl.NumberFormat;
  digits: number;
}

// Built once per currency: constructing a formatter (or asking its options) costs more than formatting.
const formatters = new Map<string, Formatter | null>();

function formatter(currency: string): Formatter | null {
  if (!formatters.has(currency)) {
    try {
      const format = new Intl.NumberFormat(currency === 'INR' ? 'en-IN' : 'en-US', { style: 'currency', currency });
      formatters.set(currency, { format, digits: format.resolvedOptions().maximumFractionDigits ?? 2 });
    } catch {
      formatters.set(currency, null);
    }
  }
  return formatters.get(currency) ?? null;
}

const asInteger = (amount: unknown): number | undefined => {
  if (typeof amount === 'number' && Number.isFinite(amount)) return amount;
  if (typeof amount === 'string' && /^-?\d+$/.test(amount.trim())) return Number(amount);
  return undefined;
};

/** `₹500.00` from 50000 paise; '' for no amount; the raw text when it is not a number. */
export function formatMoneyShort(amount: unknown, currency?: unknown): string {
  if (amount === null || amount === undefined || amount === '') return '';
  const n = asInteger(amount);
  if (n === undefined) return String(amount);
  const code = typeof currency === 'string' && currency ? currency.toUpperCase() : '';
  const f = code ? formatter(code) : null;
  if (!f) return `${n} minor units${code ? ` ${code}` : ''}`;
  return f.format.format(n / 10 ** f.digits);
}

/** `₹500.00 (50000 paise)`: what a person reads, and what the service counts. */
export function formatMoney(amount: unknown, currency?: unknown): string {
  const short = formatMoneyShort(amount, currency);
  const n = asInteger(amount);
  if (!short || n === undefined || short.endsWith('minor units') || /minor units \w+$/.test(short)) return short;
  return `${short} (${n} ${minorUnitName(String(currency))})`;
}

export { minorUnitName };

/** Digits after the decimal point in `currency` (2 for INR, 0 for JPY); undefined for an unknown code. */
export function minorDigits(currency: unknown): number | undefined {
  const code = typeof currency === 'string' && currency ? currency.toUpperCase() : '';
  return code ? formatter(code)?.digits : undefined;
}
