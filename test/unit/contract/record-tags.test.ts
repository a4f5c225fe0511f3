import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { FundAccount, Payment, Subscription, Transfer } from '../../../src/contract/resources';
import type { Served } from '../../../src/contract/served';
import { checkFields, knownFields } from '../../../src/output/known-fields';

// Typecheck (`tsc`, run with the tests) holds these: the sandbox's record types are the declarations'.
const transfer = { id: 'trf_1', entity: 'transfer', amount: 1, currency: 'INR', created_at: 1 } as const;
// @ts-expect-error a transfer as the service sends it carries every declared field of today's payloads
export const partialTransfer: Served<'transfer'> = transfer;
// An older payload's field (`old:`) and an unchecked object (`json`: `error`) may be absent from what is sent.
export const today: Served<'transfer'> = {
  ...transfer,
  ...{ status: 'processed', source: 'pay_1', recipient: 'cust_1', amount_reversed: 0, fees: 0, tax: 0, notes: {} },
  ...{ linked_account_notes: [], on_hold: false, on_hold_until: null, settlement_status: null },
  ...{ recipient_settlement_id: null, processed_at: null },
};
// @ts-expect-error a settlement's amount is sent as a number, never a digit string
export const stringAmount: Served<'settlement'>['amount'] = '100';

const payment = { id: 'pay_1', entity: 'payment', amount: 100, currency: 'INR', status: 'captured', created_at: 1 };
const reads = (schema: z.ZodMiniType, value: object) => z.safeParse(schema, value).success;

/** The reading schemas derived from the record tags are exactly as tolerant as the hand-written ones were. */
describe('record tags', () => {
  it('check a checked field, take any value in a field read unchecked (~, json, any)', () => {
    expect(reads(Payment, payment)).toBe(true);
    expect(reads(Payment, { ...payment, amount: '100' })).toBe(true);
    expect(reads(Payment, { ...payment, amount: 'lots' })).toBe(false);
    expect(reads(Payment, { ...payment, status: undefined })).toBe(false);
    expect(reads(Payment, { ...payment, bank: 5, international: 'no', card: 'x', error_code: [] })).toBe(true);
  });

  it('take either of two types, null or absent where a ? says so', () => {
    expect(reads(Payment, { ...payment, captured: 1, contact: 9876543210 })).toBe(true);
    expect(reads(Payment, { ...payment, captured: 'yes' })).toBe(false);
    const sub = { id: 'sub_1', entity: 'subscription', plan_id: 'plan_1', status: 'active', created_at: 1 };
    for (const remaining_count of [5, '5', 'n/a', null])
      expect(reads(Subscription, { ...sub, remaining_count })).toBe(true);
    expect(reads(Subscription, { ...sub, remaining_count: true })).toBe(false);
  });

  it('read nested objects, nullable ones null, and an older payload by its old field', () => {
    const fa = { id: 'fa_1', entity: 'fund_account', created_at: 1, active: 'true' };
    expect(reads(FundAccount, { ...fa, bank_account: null })).toBe(true);
    expect(reads(FundAccount, { ...fa, bank_account: { name: 'A', account_number: 5010001234, x: 1 } })).toBe(true);
    expect(reads(FundAccount, { ...fa, bank_account: { name: 5 } })).toBe(false);
    expect(reads(Transfer, { ...transfer, transfer_status: 'processed' })).toBe(true);
    expect(reads(Transfer, { ...transfer, transfer_status: 5 })).toBe(false);
  });

  it('give --fields the record fields, objects (nested ones too) and a parent column', () => {
    expect(knownFields('payment')!.objects).toEqual(['notes', 'acquirer_data', 'card']);
    expect(knownFields('payment')!.names).toEqual(expect.arrayContaining(['vpa', 'error_reason', 'fee_display']));
    expect(() => checkFields('fund_account', ['bank_account.bank_name', 'account_type'])).not.toThrow();
    expect(() => checkFields('customer_transaction', ['customer_id', 'balance'])).not.toThrow();
    expect(() => checkFields('subscription', ['remaining_cont'])).toThrow(/did you mean remaining_count\?/);
  });
});
