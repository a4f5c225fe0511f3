import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refundPayments } from '../../../../src/commands/payments/refund';
import type { RefundPaymentsOptions } from '../../../../src/commands/payments/refund';
import { FailureError } from '../../../../src/contract/errors';
import { fakeContext } from '../fake-context';
import type { Answer } from '../fake-context';
import { PAY, noRefundFlags, payment, refund, rowsOf } from './fixtures';

// A refund carrying payctl's key that the service applied and then failed (its amount went back to the
// payment): never "done", and never sent again under that key, which only answers the failed refund.

const opts = (o: Partial<RefundPaymentsOptions> = {}): RefundPaymentsOptions => ({
  ids: [PAY],
  ...noRefundFlags,
  ...o,
});
const lost: Answer = { status: 502, body: { message: 'bad gateway' } };
const posts = (sent: Array<{ method: string }>) => sent.filter((r) => r.method === 'POST');

/** The payment's refunds list what was POSTed, each landed and then failed; the POST is answered by `answer`. */
function failingRoutes(answer: (amount: number) => Answer, listed: Array<Record<string, unknown>> = []) {
  return {
    'GET /payments/:id': { body: payment(PAY) },
    'GET /payments/:id/refunds': () => ({ body: { entity: 'collection', count: listed.length, items: listed } }),
    'POST /payments/:id/refund': (req: { body?: unknown }) => {
      const body = req.body as { amount: number; notes: Record<string, string> };
      listed.unshift({ ...refund(`rfnd_f${listed.length}`, PAY, body.amount), status: 'failed', notes: body.notes });
      return answer(body.amount);
    },
  };
}

describe('a refund carrying our key that failed at the service', () => {
  it('--idempotency-key of it: exit 1 naming the refund, nothing sent, a new key suggested', async () => {
    const key = 'pcs_failedkey0001';
    const failed = { ...refund('rfnd_gone', PAY, 5000), status: 'failed', notes: { payctl_key: key } };
    const f = fakeContext({ routes: failingRoutes(() => lost, [failed]) });
    const err = await refundPayments(opts({ amount: '5000', idempotencyKey: key }), f.ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FailureError);
    expect((err as Error).message).toMatch(/rfnd_gone carrying our key failed at the service.*nothing was sent now/);
    expect((err as FailureError).hints.join('\n')).toMatch(/without --idempotency-key/);
    expect(posts(f.sent)).toEqual([]);
  });

  it('its answer lost, then found failed: exit 1, not an unknown outcome', async () => {
    const f = fakeContext({ routes: failingRoutes(() => lost) });
    const err = await refundPayments(opts({ amount: '5000' }), f.ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FailureError);
    expect((err as Error).message).toMatch(/its answer was lost .*rfnd_f0 carrying our key failed at the service/);
    expect(posts(f.sent)).toHaveLength(1);
  });

  it('answered as a failed refund: exit 1, never printed as a refund made', async () => {
    const f = fakeContext({
      routes: failingRoutes((amount) => ({ body: { ...refund('rfnd_f0', PAY, amount), status: 'failed' } })),
    });
    await expect(refundPayments(opts({ amount: '5000' }), f.ctx)).rejects.toThrow(/rfnd_f0, which failed/);
  });

  it('in a bulk run: the row is failed with the refund id, and the next run of the input is told to be new', async () => {
    const f = fakeContext({ routes: failingRoutes(() => lost) });
    const result = await refundPayments(opts({ amount: '700', journal: join(f.home, 'r.ndjson') }), f.ctx);
    const rows = (await rowsOf(result)) as Array<{ result: string; refund_id: string | null; reason: string }>;
    expect(rows).toEqual([
      expect.objectContaining({
        result: 'failed',
        refund_id: 'rfnd_f0',
        reason: expect.stringMatching(/failed at the service.*--new-run/),
      }),
    ]);
  });

  it('in a bulk run, a refusal is not turned into "done" by a failed refund carrying the key', async () => {
    const refused: Answer = { status: 400, body: { error: { code: 'BAD_REQUEST_ERROR', description: 'no' } } };
    const f = fakeContext({ routes: failingRoutes(() => refused) });
    const result = await refundPayments(opts({ amount: '700', journal: join(f.home, 'q.ndjson') }), f.ctx);
    const rows = (await rowsOf(result)) as Array<{ result: string }>;
    expect(rows).toEqual([expect.objectContaining({ result: 'failed' })]);
  });
});
