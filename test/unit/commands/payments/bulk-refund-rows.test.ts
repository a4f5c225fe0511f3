import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refundPayments } from '../../../../src/commands/payments/refund';
import { BulkIncompleteError } from '../../../../src/contract/errors';
import { fakeContext } from '../fake-context';
import { PAY, PAY2, bulkRefund, payment, refund, rowsOf } from './fixtures';

/**
 * A payment whose refund list shows every refund POSTed so far (it lands as `landedId`), the POST
 * answered by `answer`: the service as a lost or odd answer meets it.
 */
function landingRoutes(
  landedId: (n: number) => string,
  answer: (amount: number) => { status?: number; body: unknown },
) {
  const landed: Array<{ id: string; amount: number; notes: Record<string, string> }> = [];
  return {
    'GET /payments/:id': (_req: unknown, p: Record<string, string>) => ({ body: payment(p.id!) }),
    'GET /payments/:id/refunds': () => ({ body: { entity: 'collection', count: landed.length, items: landed } }),
    'POST /payments/:id/refund': (req: { body?: unknown }) => {
      const body = req.body as { amount: number; notes: Record<string, string> };
      landed.push({ id: landedId(landed.length), amount: body.amount, notes: body.notes });
      return answer(body.amount);
    },
  };
}

describe('bulk refund rows: what the service answered, refused or lists decides each row', () => {
  it('a refund the service refuses: a failed row, exit 7 naming it', async () => {
    const f = fakeContext({
      routes: {
        'GET /payments/:id': (_req, p) => ({ body: payment(p.id!) }),
        'POST /payments/:id/refund': (req, p) =>
          p.id === PAY
            ? { body: refund('rfnd_1', PAY, (req.body as { amount: number }).amount) }
            : { status: 400, body: { error: { code: 'BAD_REQUEST_ERROR', description: 'refund window closed' } } },
      },
    });
    const journal = join(f.home, 'run.ndjson');
    const result = await refundPayments(bulkRefund({ journal }), f.ctx);
    await rowsOf(result);
    if (result.type !== 'many') throw new Error('rows expected');
    const err = await Promise.resolve(result.finish?.()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BulkIncompleteError);
    expect((err as Error).message).toBe('1 of the refunds did not complete (1 failed, 0 unknown)');
    expect((err as BulkIncompleteError).hints[0]).toMatch(`failed ${PAY2} (line 2): refund window closed`);
    expect(f.stderr()).toContain(`journal: ${journal}`);

    // The rerun is a resume: it says so before asking, and asks about what is left.
    const again = fakeContext({
      routes: { 'GET /payments/:id': (_req, p) => ({ body: payment(p.id!) }) },
      confirm: false,
    });
    await expect(refundPayments(bulkRefund({ journal, amount: undefined }), again.ctx)).rejects.toThrow(
      /declined at a confirmation/,
    );
    expect(again.questions).toEqual([
      'Resume: 1 of 2 done by the earlier run. Refund the remaining 1 payment(s) at all that remains of each payment, read when it is sent?',
    ]);
    expect(again.sent.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('a refusal is looked at once more: a refund carrying the row key that landed meanwhile is done, not failed', async () => {
    // The earlier request lands just now; this resend is refused as more than captured.
    const f = fakeContext({
      routes: landingRoutes(
        (n) => `rfnd_${n}`,
        () => ({
          status: 400,
          body: { error: { code: 'BAD_REQUEST_ERROR', description: 'greater than amount captured' } },
        }),
      ),
    });
    const result = await refundPayments(
      bulkRefund({ ids: [PAY], amount: '700', journal: join(f.home, 'r.ndjson') }),
      f.ctx,
    );
    const rows = (await rowsOf(result)) as Array<{ result: string; refund_id: string | null }>;
    expect(rows).toEqual([expect.objectContaining({ result: 'done', refund_id: 'rfnd_0' })]);
  });

  describe('a service that lists no refunds, a payment with too little left', () => {
    // Refunded in full already, perhaps by this input run on another machine (the same row keys).
    const refunded = {
      'GET /payments/:id': (_req: unknown, p: Record<string, string>) => ({
        body: payment(p.id!, { amount_refunded: 50000 }),
      }),
    };
    const run = async (f: ReturnType<typeof fakeContext>, amount?: string) => {
      const result = await refundPayments(bulkRefund({ ids: [PAY], amount, journal: join(f.home, 'r.ndjson') }), f.ctx);
      const rows = (await rowsOf(result)) as Array<{ result: string; refund_id: string | null; reason: string }>;
      if (result.type === 'many') await Promise.resolve(result.finish?.()).catch(() => undefined);
      return rows;
    };

    it('an amount above what remains is sent with the row key: the service answering it with its refund is skipped', async () => {
      const f = fakeContext({
        routes: { ...refunded, 'POST /payments/:id/refund': (_req, p) => ({ body: refund('rfnd_mine', p.id!, 700) }) },
      });
      expect(await run(f, '700')).toEqual([
        expect.objectContaining({
          result: 'skipped',
          refund_id: 'rfnd_mine',
          reason: expect.stringContaining("refunded already with this run's key"),
        }),
      ]);
      const posts = f.sent.filter((r) => r.method === 'POST');
      expect(posts).toHaveLength(1);
      expect(posts[0]!.headers?.['X-Refund-Idempotency']).toMatch(/^pcb_/);
    });

    it('refused by the service, the row is unknown, never failed: its own earlier refund may be what left too little', async () => {
      const f = fakeContext({
        routes: {
          ...refunded,
          'POST /payments/:id/refund': () => ({
            status: 400,
            body: { error: { code: 'BAD_REQUEST_ERROR', description: 'greater than amount captured' } },
          }),
        },
      });
      expect(await run(f, '700')).toEqual([
        expect.objectContaining({
          result: 'unknown',
          reason: expect.stringContaining('this service lists no refunds'),
        }),
      ]);
    });

    it('all that remains of a payment with nothing left: unknown, and nothing is sent', async () => {
      const f = fakeContext({ routes: refunded });
      expect(await run(f)).toEqual([
        expect.objectContaining({ result: 'unknown', reason: expect.stringContaining('nothing left to refund') }),
      ]);
      expect(f.sent.filter((r) => r.method === 'POST')).toHaveLength(0);
    });
  });

  it("an answer that is another payment's refund is not recorded: the row is judged by its key among the refunds", async () => {
    const f = fakeContext({
      routes: landingRoutes(
        () => 'rfnd_ours',
        (amount) => ({ body: refund('rfnd_FORGED', PAY2, amount * 2) }),
      ),
    });
    const result = await refundPayments(
      bulkRefund({ ids: [PAY], amount: '700', journal: join(f.home, 'f.ndjson') }),
      f.ctx,
    );
    const rows = (await rowsOf(result)) as Array<{ result: string; refund_id: string | null; reason: string }>;
    expect(rows).toEqual([
      expect.objectContaining({
        result: 'done',
        refund_id: 'rfnd_ours',
        reason: expect.stringContaining(
          `could not be read as this refund (the answer is refund rfnd_FORGED of payment "${PAY2}"`,
        ),
      }),
    ]);
  });

  it('a resume of partial refunds totals only what is left', async () => {
    let n = 0;
    const f = fakeContext({
      routes: {
        'GET /payments/:id': (_req, p) => ({ body: payment(p.id!) }),
        'POST /payments/:id/refund': (req, p) =>
          n++ === 0
            ? { body: refund('rfnd_1', p.id!, (req.body as { amount: number }).amount) }
            : { status: 400, body: { error: { code: 'BAD_REQUEST_ERROR', description: 'refund window closed' } } },
      },
    });
    const journal = join(f.home, 'partial.ndjson');
    const first = await refundPayments(bulkRefund({ journal, amount: '700', concurrency: '1' }), f.ctx);
    await rowsOf(first);
    if (first.type === 'many') await Promise.resolve(first.finish?.()).catch(() => undefined);
    const again = fakeContext({
      routes: { 'GET /payments/:id': (_req, p) => ({ body: payment(p.id!) }) },
      confirm: false,
    });
    await expect(refundPayments(bulkRefund({ journal, amount: '700' }), again.ctx)).rejects.toThrow(
      /declined at a confirmation/,
    );
    expect(again.questions).toEqual([
      'Resume: 1 of 2 done by the earlier run. Refund the remaining 1 payment(s), total ₹7.00 (700 paise)?',
    ]);
  });
});
