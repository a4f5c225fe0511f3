import { describe, expect, it } from 'vitest';
import {
  CaptureBody,
  OrderCreateBody,
  OrderListQuery,
  PaymentTransferBody,
  PayoutBody,
  SubscriptionCancelBody,
  describeIssue,
} from '../../../src/contract';
import type * as z from 'zod/mini';

function verdict(schema: z.ZodMiniType, input: unknown): string {
  const r = schema.safeParse(input);
  return r.success ? 'ok' : describeIssue(r.error, input);
}

const notes = (n: number, len = 1) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v'.repeat(len)]));

describe("request limits of spec section 8, in the service's words", () => {
  it.each([
    [OrderCreateBody, { amount: 100, currency: 'INR' }, 'ok'],
    [OrderCreateBody, { currency: 'INR' }, 'The amount field is required.'],
    [OrderCreateBody, { amount: 12.5, currency: 'INR' }, 'The amount must be an integer.'],
    [OrderCreateBody, { amount: 0, currency: 'INR' }, 'The amount must be at least 1.'],
    [OrderCreateBody, { amount: '100', currency: 'INR' }, 'ok'],
    [OrderCreateBody, { amount: 100, currency: 'INR', receipt: 'r'.repeat(40) }, 'ok'],
    [
      OrderCreateBody,
      { amount: 100, currency: 'INR', receipt: 'r'.repeat(41) },
      'The receipt may not be greater than 40 characters.',
    ],
    [OrderCreateBody, { amount: 100, currency: 'INR', notes: notes(15, 256) }, 'ok'],
    [OrderCreateBody, { amount: 100, currency: 'INR', notes: notes(16) }, 'The notes may not have more than 15 items.'],
    [
      OrderCreateBody,
      { amount: 100, currency: 'INR', notes: notes(1, 257) },
      'The notes.k0 may not be greater than 256 characters.',
    ],
    [OrderCreateBody, { amount: 100, currency: 'INR', notes: [] }, 'ok'],
    [OrderListQuery, { count: '100' }, 'ok'],
    [OrderListQuery, { count: '101' }, 'The count may not be greater than 100.'],
    [OrderListQuery, { count: '1.5' }, 'The count must be an integer.'],
    [OrderListQuery, { authorized: '1' }, 'ok'],
    [OrderListQuery, { authorized: 'true' }, 'ok'],
    [CaptureBody, { amount: 100 }, 'The currency field is required.'],
    [SubscriptionCancelBody, {}, 'ok'],
    [PaymentTransferBody, { transfers: [{ customer: 'cust_1', amount: 100, currency: 'INR' }] }, 'ok'],
    [PaymentTransferBody, { transfers: { customer: 'cust_1', amount: 100, currency: 'INR' } }, 'ok'],
    [
      PaymentTransferBody,
      { transfers: [{ customer: 'cust_1', amount: 100, currency: 'USD' }] },
      'The transfers[0].currency must be INR, the only currency this flow accepts.',
    ],
    [
      PayoutBody,
      { fund_account_id: 'fa_1', purpose: 'refund', amount: 100, currency: 'INR', narration: 'Acme refund 42' },
      'ok',
    ],
    [
      PayoutBody,
      { fund_account_id: 'fa_1', purpose: 'refund', amount: 100, currency: 'INR', narration: 'Acme-refund!' },
      'The narration may contain only a-z, A-Z, 0-9 and space.',
    ],
    [
      PayoutBody,
      { fund_account_id: 'fa_1', purpose: 'refund', amount: 100, currency: 'INR', narration: 'n'.repeat(31) },
      'The narration may not be greater than 30 characters.',
    ],
  ] as Array<[z.ZodMiniType, unknown, string]>)('%#: %j', (schema, input, expected) => {
    expect(verdict(schema, input)).toBe(expected);
  });
});
