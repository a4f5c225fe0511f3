import { describe, expect, it } from 'vitest';
import { KINDS, kindNamed } from '../../../src/contract/kinds';
import type { ResourceKind } from '../../../src/contract/kinds';
import { columnsFor, defaultColumns, tableRank } from '../../../src/output/columns';
import { knownFields } from '../../../src/output/known-fields';

const kinds = Object.keys(KINDS) as ResourceKind[];

/** Each resource is declared once; these check the declarations agree with themselves. */
describe('the kinds registry', () => {
  it.each(kinds)('%s: its table order names only its own columns, each once', (kind) => {
    const d = KINDS[kind];
    const keys = [
      ...d.columns.map((c) => c.key),
      ...(d.parent ? [d.parent.key] : []),
      ...(d.fetchedById ? ['error'] : []),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of d.table ?? []) expect(keys).toContain(key);
    expect(new Set(d.table ?? []).size).toBe((d.table ?? []).length);
  });

  it.each(kinds)('%s: the export currency follows a money column it has', (kind) => {
    const d = KINDS[kind];
    if (!d.currencyAfter) return;
    expect(d.columns.find((c) => c.key === d.currencyAfter)?.type).toBe('money');
  });

  it.each(kinds)('%s: every column --fields may name is in its field catalogue', (kind) => {
    const known = knownFields(kind);
    if (!known) return expect(KINDS[kind].fields).toBeUndefined();
    for (const c of defaultColumns(kind)) expect(known.names).toContain(c.key);
  });

  it('entities and list paths name their kind, so `payctl api` picks its columns', () => {
    expect(kindNamed('customer')).toBe('customer');
    expect(kindNamed('customers')).toBe('customer');
    expect(kindNamed('statement')).toBe('customer_transaction');
    expect(kindNamed('fund_accounts')).toBe('fund_account');
    expect(kindNamed('nothing')).toBeUndefined();
    const entities = kinds.map((k) => KINDS[k].entity).filter(Boolean);
    expect(new Set(entities).size).toBe(entities.length);
  });

  it('the declared order is the columns, and the table order their rank on a narrow terminal', () => {
    const cols = columnsFor('refund');
    expect(cols.map((c) => c.key).slice(0, 4)).toEqual(['id', 'payment_id', 'amount', 'currency']);
    const rank = (key: string) =>
      tableRank(
        'refund',
        cols.find((c) => c.key === key)!,
        0,
      );
    expect(rank('id')).toBeLessThan(rank('status'));
    expect(rank('notes')).toBeGreaterThan(rank('created_at'));
  });

  it('a statement of many customers shows the declared parent column first; wallet money is INR', () => {
    expect(columnsFor('customer_transaction', undefined, undefined, { tz: 'UTC', tagged: true })[0]!.key).toBe(
      'customer_id',
    );
    expect(columnsFor('customer_transaction')[0]!.key).toBe('created_at');
    expect(KINDS.customer_transaction.walletCurrency).toBe(true);
  });
});
