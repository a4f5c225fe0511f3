import { describe, expect, it } from 'vitest';
import { Findings, rowProblem } from '../../../../src/commands/settlements/checks';
import { TieOut } from '../../../../src/commands/settlements/tie-out';

const payment = {
  type: 'payment',
  entity_id: 'pay_1',
  amount: 100_000,
  fee: 2360,
  tax: 360,
  credit: 97_640,
  debit: 0,
  settlement_id: 'setl_A',
};
const refund = { type: 'refund', entity_id: 'rfnd_1', amount: 30_000, fee: 0, tax: 0, credit: 0, debit: 30_000 };

describe('the rules of a settlement report row', () => {
  it('a payment and a refund that keep them pass', () => {
    expect(rowProblem(payment)).toBeUndefined();
    expect(rowProblem({ ...refund, settlement_id: 'setl_A' })).toBeUndefined();
    expect(rowProblem({ ...payment, settlement_id: null, settled: false })).toBeUndefined();
    expect(rowProblem({ ...payment, amount: '100000', fee: '2360' })).toBeUndefined();
  });

  it.each([
    [{ credit: 97_000 }, 'payment pay_1: credit 97000 is not amount 100000 - fee 2360 = 97640'],
    [{ fee: -10, credit: 100_010 }, 'payment pay_1: fee is -10, not a non-negative whole number of paise'],
    [{ tax: undefined }, 'payment pay_1: tax is missing, not a non-negative whole number of paise'],
    [{ tax: null }, 'payment pay_1: tax is null, not a non-negative whole number of paise'],
    [{ tax: -1 }, 'payment pay_1: tax is -1, not a non-negative whole number of paise'],
    [{ tax: 3000 }, 'payment pay_1: tax 3000 is more than its fee 2360 (the fee includes the tax)'],
    [{ amount: 10.5 }, 'payment pay_1: amount is 10.5, not a non-negative whole number of paise'],
    [{ debit: 5 }, 'payment pay_1: a payment with a debit of 5'],
    [{ settlement_id: undefined }, 'payment pay_1: no settlement_id, and not listed as unsettled (settled: missing)'],
    [
      { settlement_id: '', settled: true },
      'payment pay_1: no settlement_id, and not listed as unsettled (settled: true)',
    ],
  ])('a payment with %j: %s', (change, problem) => {
    expect(rowProblem({ ...payment, ...change })).toBe(problem);
  });

  it.each([
    [{ debit: 29_000 }, 'refund rfnd_1: debit 29000 is not amount 30000 + fee 0 = 30000'],
    [{ credit: 1 }, 'refund rfnd_1: a refund with a credit of 1'],
    [{ fee: 100, tax: 18, debit: 30_100 }, undefined],
  ])('a refund with %j: %s', (change, problem) => {
    expect(rowProblem({ ...refund, ...change })).toBe(problem);
  });

  it('keeps the first findings in order and counts the rest', () => {
    const f = new Findings(2);
    ['a', 'b', 'c', 'd'].forEach((x) => f.add(x));
    expect(f.count).toBe(4);
    expect(f.lines()).toEqual(['b', '… and 2 more']);
  });
});

describe('tying out every settlement the service lists', () => {
  const stated = (id: string, amount: number, fees: unknown = 2360, tax: unknown = 360) => ({
    id,
    amount,
    fees,
    tax,
    utr: `utr_${id}`,
  });

  it('a listed settlement with no rows is named', () => {
    const tie = new TieOut();
    tie.note(payment);
    const verdicts = tie.verdicts(
      new Map([
        ['setl_A', stated('setl_A', 97_640)],
        ['setl_B', stated('setl_B', 5000)],
      ]),
    );
    expect(verdicts.map((v) => [v.id, v.differences])).toEqual([
      ['setl_A', []],
      ['setl_B', ['no rows in the report for its ₹50.00 (5000 paise)']],
    ]);
    expect(verdicts[1]!.utr).toBe('utr_setl_B');
  });

  it('rows of a settlement the service does not list, and a settlement stating no tax, are named', () => {
    const tie = new TieOut();
    tie.note(payment);
    tie.note({ ...payment, entity_id: 'pay_2', settlement_id: 'setl_C' });
    const verdicts = tie.verdicts(new Map([['setl_A', stated('setl_A', 97_640, 2360, null)]]));
    expect(verdicts.map((v) => [v.id, v.differences])).toEqual([
      ['setl_A', ['the settlement states no tax']],
      ['setl_C', ['not listed by the service for the period']],
    ]);
  });
});
