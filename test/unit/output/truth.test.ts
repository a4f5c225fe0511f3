import { describe, expect, it } from 'vitest';
import { wrapLine } from '../../../src/output/layout';
import { minorUnits } from '../../../src/output/money';
import { columnsFor, defaultColumns, cellValue } from '../../../src/output/columns';
import { textWidth } from '../../../src/output/layout';

describe('minor units by name', () => {
  it.each([
    [15157000, 'INR', '15157000 paise'],
    [12345, 'USD', '12345 cents'],
    [12345, 'usd', '12345 cents'],
    [12345, 'XYZ', '12345 minor units of XYZ'],
    [12345, undefined, '12345 minor units'],
  ])('%s %s -> %s', (n, cur, want) => expect(minorUnits(n, cur)).toBe(want));
});

describe('hint lines', () => {
  const hint =
    'one page of 10 orders shown; more may exist: --all for every page, --skip 10 for the next, --limit N for N rows';
  it('wrap between words at the width', () => {
    const lines = wrapLine(hint, 80).split('\n');
    expect(lines.length).toBe(2);
    for (const l of lines) expect(textWidth(l)).toBeLessThanOrEqual(80);
    expect(lines.join(' ')).toBe(hint);
  });
  it('stay one line without a width', () => expect(wrapLine(hint, undefined)).toBe(hint));
});

describe('currency column', () => {
  it.each(['order', 'payment', 'refund', 'plan', 'transfer', 'payout', 'customer_transaction'] as const)(
    '%s exports name the currency of every row',
    (kind) => expect(defaultColumns(kind).map((c) => c.key)).toContain('currency'),
  );
  it("reads the row's currency, the plan item's, and INR for wallet rows", () => {
    const col = (kind: Parameters<typeof columnsFor>[0]) => columnsFor(kind).find((c) => c.key === 'currency')!;
    expect(cellValue({ amount: 1, currency: 'USD' }, col('payment'))).toBe('USD');
    expect(cellValue({ item: { amount: 1, currency: 'INR' } }, col('plan'))).toBe('INR');
    expect(cellValue({ credit: 1, balance: 1 }, col('customer_transaction'))).toBe('INR');
  });
});
