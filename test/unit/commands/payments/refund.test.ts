import { describe, expect, it } from 'vitest';
import { refundPayments } from '../../../../src/commands/payments/refund';
import type { RefundPaymentsOptions } from '../../../../src/commands/payments/refund';
import { UsageError } from '../../../../src/contract/errors';
import { fakeContext } from '../fake-context';
import { PAY, noRefundFlags, payment, refund } from './fixtures';

const opts = (o: Partial<RefundPaymentsOptions> = {}): RefundPaymentsOptions => ({
  ids: [PAY],
  ...noRefundFlags,
  ...o,
});
/** A captured payment of ₹500.00 with ₹300.00 refunded already: ₹200.00 remains. */
const partlyRefunded = { body: payment(PAY, { amount_refunded: 30000 }) };
const routes = {
  'GET /payments/:id': partlyRefunded,
  'POST /payments/:id/refund': (req: { body?: unknown }) => ({
    body: refund('rfnd_1', PAY, (req.body as { amount: number }).amount),
  }),
};
const posts = (sent: Array<{ method: string }>) => sent.filter((r) => r.method === 'POST');

describe('payments refund (one payment)', () => {
  it('no --amount: everything that remains, as that explicit amount', async () => {
    const f = fakeContext({ routes });
    const result = await refundPayments(opts({ receipt: 'r-1', notes: ['reason=damaged'] }), f.ctx);
    expect(f.questions[0]).toMatch(/^Refund the remaining ₹200.00 .*of payment pay_29QQoUBi66xm2f \(captured, ₹500/);
    expect(posts(f.sent)).toEqual([
      expect.objectContaining({
        path: `/payments/${PAY}/refund`,
        body: {
          amount: 20000,
          receipt: 'r-1',
          notes: { reason: 'damaged', payctl_key: expect.stringMatching(/^pcs_[A-Za-z0-9_-]{20}$/) },
        },
      }),
    ]);
    expect(result).toMatchObject({ type: 'one', kind: 'refund', data: { id: 'rfnd_1', amount: 20000 } });
  });

  it('the key goes in X-Refund-Idempotency and in the payctl_key note; --idempotency-key first looks for it', async () => {
    const f = fakeContext({ routes });
    await refundPayments(opts({ amount: '5000' }), f.ctx);
    const post = f.sent.find((r) => r.method === 'POST');
    const key = (post!.body as { notes: { payctl_key: string } }).notes.payctl_key;
    expect(post!.headers).toEqual({ 'X-Refund-Idempotency': key });

    const rerun = fakeContext({
      routes: {
        ...routes,
        'GET /payments/:id/refunds': {
          body: { entity: 'collection', count: 1, items: [{ id: 'rfnd_9', amount: 5000, notes: { payctl_key: key } }] },
        },
      },
    });
    const result = await refundPayments(opts({ amount: '5000', idempotencyKey: key }), rerun.ctx);
    expect(posts(rerun.sent)).toEqual([]);
    expect(rerun.stderr()).toMatch(`refunded already with key ${key}`);
    expect(result).toMatchObject({ type: 'one', kind: 'refund', data: { id: 'rfnd_9' } });
  });

  it('a part of what remains', async () => {
    const f = fakeContext({ routes });
    await refundPayments(opts({ amount: '5000' }), f.ctx);
    expect(posts(f.sent)).toEqual([expect.objectContaining({ body: expect.objectContaining({ amount: 5000 }) })]);
  });

  it.each([
    [
      'more than remains',
      partlyRefunded,
      '20001',
      /cannot refund ₹200.01 .* only ₹200.00 .*remains .*nothing was sent/,
    ],
    ['a payment refunded in full', { body: payment(PAY, { amount_refunded: 50000 }) }, undefined, /nothing left/],
  ])('%s: refused (exit 2) before the question, nothing sent', async (_name, answer, amount, message) => {
    const f = fakeContext({ routes: { ...routes, 'GET /payments/:id': answer } });
    const err = await refundPayments(opts({ amount }), f.ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(message);
    expect(posts(f.sent)).toHaveLength(0);
  });

  it.each([
    ['a decimal amount', opts({ amount: '200.00' }), /--amount/],
    ['a note without =', opts({ notes: ['damaged'] }), /--note/],
    ['a receipt over 40 characters', opts({ receipt: 'r'.repeat(41) }), /receipt/],
    ['a bad id', opts({ ids: ['pay_!'] }), /payment id must look like/],
  ])('%s: a usage error, nothing sent', async (_name, o, message) => {
    const f = fakeContext({ routes });
    await expect(refundPayments(o, f.ctx)).rejects.toThrow(message);
    expect(f.sent).toHaveLength(0);
  });

  it('declined at the question: nothing refunded', async () => {
    const f = fakeContext({ routes, confirm: false });
    await expect(refundPayments(opts(), f.ctx)).rejects.toThrow(/declined at a confirmation: nothing was sent/);
    expect(posts(f.sent)).toHaveLength(0);
  });

  it('--dry-run shows the request as given and sends nothing', async () => {
    const f = fakeContext({ routes, settings: { dryRun: true } });
    const result = await refundPayments(opts({ amount: '5000', notes: ['a=1'] }), f.ctx);
    expect(result).toMatchObject({
      type: 'dry-run',
      requests: [{ method: 'POST', path: `/payments/${PAY}/refund`, body: { amount: 5000, notes: { a: '1' } } }],
    });
    expect(f.sent).toHaveLength(0);
  });
});
