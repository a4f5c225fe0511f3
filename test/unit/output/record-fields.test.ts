import { describe, expect, it } from 'vitest';
import { derivedColumns } from '../../../src/output/columns';
import { checkFields, knownFields } from '../../../src/output/known-fields';

/** What a resource shows and which --fields it takes derive from the contract's field list of it. */
describe("columns and --fields from the contract's record fields", () => {
  it('a record kind without columns of its own shows its fields, typed by their names', () => {
    const cols = derivedColumns('refund');
    expect(cols.map((c) => c.key)).toEqual([
      'id',
      'amount',
      'currency',
      'payment_id',
      'receipt',
      'status',
      'speed_processed',
      'speed_requested',
      'batch_id',
      'created_at',
      'notes',
      'acquirer_data',
    ]);
    expect(Object.fromEntries(cols.map((c) => [c.key, c.type]))).toMatchObject({
      amount: 'money',
      created_at: 'time',
      notes: 'json',
    });
    expect(derivedColumns('wallet_balance')).toEqual([]);
  });

  it('--fields knows every field, its derived forms and the object fields', () => {
    const known = knownFields('refund')!;
    expect(known.names).toEqual(expect.arrayContaining(['speed_requested', 'amount_display', 'created_at_local']));
    expect(known.objects).toEqual(['notes', 'acquirer_data']);
    expect(() => checkFields('refund', ['acquirer_data.rrn', 'batch_id'])).not.toThrow();
    expect(() => checkFields('refund', ['speed'])).toThrow(/refund rows have no column "speed"/);
    expect(knownFields('wallet_balance')).toBeUndefined();
    // A nested object's keys may be picked: a plan's item.
    expect(knownFields('plan')!.objects).toEqual(['item', 'notes']);
    expect(() => checkFields('plan', ['item.unit_amount', 'period'])).not.toThrow();
    expect(() => checkFields('plan', ['periods'])).toThrow(
      /plan rows have no column "periods" \(did you mean period\?\)/,
    );
  });
});
