import { describe, expect, it } from 'vitest';
import { judgeRefund } from '../../../src/client/refund';

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
