import { err, ok } from './result';
import type { Result } from './result';

/** The minor unit's name of common currencies (output names others `minor units of XYZ`). */
export const MINOR_UNIT: Record<string, string> = {
  INR: 'paise',
  USD: 'cents',
  EUR: 'cents',
  AUD: 'cents',
  CAD: 'cents',
  SGD: 'cents',
  HKD: 'cents',
  NZD: 'cents',
  ZAR: 'cents',
  LKR: 'cents',
  GBP: 'pence',
  AED: 'fils',
  NPR: 'paisa',
  PKR: 'paisa',
  BDT: 'poisha',
  MYR: 'sen',
  THB: 'satang',
  CNY: 'fen',
  CHF: 'rappen',
  MXN: 'centavos',
  BRL: 'centavos',
  PHP: 'centavos',
};

export const minorUnitName = (currency = 'INR') => MINOR_UNIT[currency.toUpperCase()] ?? 'smallest currency unit';

function fractionDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** An amount as the service takes it: a positive whole number of the smallest currency unit. */
export function parseAmount(raw: string, currency = 'INR'): Result<number> {
  const text = raw.trim();
  const unit = minorUnitName(currency);
  if (/^\d+$/.test(text)) {
    const value = Number(text);
    if (value < 1) return err(`amount must be at least 1 ${unit}: got "${text}"`);
    if (!Number.isSafeInteger(value)) return err(`amount is too large: got "${text}"`);
    return ok(value);
  }
  const decimal = /^(\d+)\.(\d+)$/.exec(text);
  if (decimal) {
    const digits = fractionDigits(currency);
    const [, whole, frac] = decimal as unknown as [string, string, string];
    const hint =
      frac.length <= digits ? `, did you mean ${Number(whole) * 10 ** digits + Number(frac.padEnd(digits, '0'))}?` : '';
    return err(`amount must be a whole number of ${unit} (the smallest currency unit): got "${text}"${hint}`);
  }
  return err(`amount must be a whole number of ${unit}, like 50000: got ${JSON.stringify(raw)}`);
}
