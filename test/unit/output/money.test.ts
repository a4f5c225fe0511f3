import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMoneyShort } from '../../../src/output/money';

// What payctl wrote before amounts were formatted by arithmetic: Intl's own text, per amount.
const intl = (minor: number, currency: string) => {
  const format = new Intl.NumberFormat(currency === 'INR' ? 'en-IN' : 'en-US', { style: 'currency', currency });
  return format.format(minor / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
};

describe('money text', () => {
  it.each(['INR', 'USD', 'EUR', 'JPY', 'KWD', 'GBP', 'CHF'])(
    '%s amounts read exactly as Intl writes them',
    (currency) => {
      fc.assert(
        fc.property(
          fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 })),
          (minor) => {
            expect(formatMoneyShort(minor, currency)).toBe(intl(minor, currency));
          },
        ),
        { numRuns: 2000 },
      );
    },
  );

  it.each([
    [0, '₹0.00'],
    [-0, '-₹0.00'],
    [163, '₹1.63'],
    [-100000, '-₹1,000.00'],
    [12345678, '₹1,23,456.78'],
    [1234567890123, '₹12,34,56,78,901.23'],
    ['245900', '₹2,459.00'],
    [1.5, intl(1.5, 'INR')],
  ])('%j paise is %j', (amount, want) => expect(formatMoneyShort(amount, 'INR')).toBe(want));
});
