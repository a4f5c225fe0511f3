import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/client/client';
import { judgeRefund, reconcileRefund } from '../../../src/client/refund';

describe('judgeRefund', () => {
  it.each([
    [0, 1000, 1000, 'applied'],
    [500, 1500, 1000, 'applied'],
    [500, 500, 1000, 'not_applied'],
    [0, 2000, 1000, 'unknown'], // applied twice, or another refund landed meanwhile
    [0, 400, 1000, 'unknown'], // someone else refunded part
    [1000, 0, 1000, 'unknown'],
  ])('before %i, after %i, amount %i -> %s', (before, after, amount, result) => {
    expect(judgeRefund(before, after, amount).result).toBe(result);
  });
});

describe('reconcileRefund reads the payment back', () => {
  const baseline = { paymentId: 'pay_1', status: 'captured', amount: 5000, amountRefunded: 0, currency: 'INR' };
  const readsBack = (payment: Record<string, unknown>) =>
    ({ call: async () => ({ id: 'pay_1', amount: 5000, currency: 'INR', ...payment }) }) as unknown as ApiClient;
  const verdict = (payment: Record<string, unknown>) =>
    reconcileRefund(readsBack(payment), baseline, 700, async () => undefined).then((v) => v.result);

  it.each([
    [{ amount_refunded: 700 }, 'applied'],
    [{ amount_refunded: '700' }, 'applied'], // digits as a string, as some payloads send amounts
    [{ amount_refunded: 0 }, 'not_applied'],
    [{}, 'unknown'], // missing: never read as 0, which would look like "not applied" and allow a resend
    [{ amount_refunded: null }, 'unknown'],
    [{ amount_refunded: '7,00' }, 'unknown'],
  ])('%j -> %s', async (payment, result) => {
    expect(await verdict(payment)).toBe(result);
  });
});
