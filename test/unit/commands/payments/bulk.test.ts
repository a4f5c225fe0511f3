import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capturePayments } from '../../../../src/commands/payments/capture';
import type { CapturePaymentsOptions } from '../../../../src/commands/payments/capture';
import { refundPayments } from '../../../../src/commands/payments/refund';
import type { RefundPaymentsOptions } from '../../../../src/commands/payments/refund';
import { BulkIncompleteError, UsageError } from '../../../../src/contract/errors';
import { fakeContext } from '../fake-context';
import { PAY, PAY2, noRefundFlags, payment, refund, rowsOf } from './fixtures';

const flags = { newRun: false, recheck: false, skipInvalid: false };
const capture = (o: Partial<CapturePaymentsOptions> = {}): CapturePaymentsOptions => ({
  ids: [PAY, PAY2],
  ...flags,
  ...o,
});
const refunds = (o: Partial<RefundPaymentsOptions> = {}): RefundPaymentsOptions => ({
  ids: [PAY, PAY2],
  ...noRefundFlags,
  ...o,
});
const routes = {
  'GET /payments/:id': (_req: unknown, p: Record<string, string>) => ({
    body: payment(p.id!, { status: 'authorized', captured: false }),
  }),
  'POST /payments/:id/capture': (_req: unknown, p: Record<string, string>) => ({ body: payment(p.id!) }),
};
const liveProfile = async () => ({
  keyId: 'rzp_live_unit',
  keySecret: 's',
  baseUrl: 'http://127.0.0.1:9/v1',
  live: true,
  source: 'profile prod',
});

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

describe('bulk run: refused before anything is sent', () => {
  it.each([
    ['ids and --input', () => capture({ input: 'ids.txt' }), /not both/],
    ['--recheck with --retry-unknown', () => refunds({ recheck: true, retryUnknown: true, journal: 'j' }), /--retry/],
    ['--recheck without a journal', () => refunds({ ids: [], recheck: true }), /--recheck needs the journal/],
    ['--concurrency 0', () => capture({ concurrency: '0' }), /--concurrency/],
    ['a bad id among them', () => capture({ ids: [PAY, 'pay_?'] }), /1 bad input row\(s\); nothing was sent/],
    ['the same id twice', () => capture({ ids: [PAY, PAY] }), /bad input row/],
    ['an unreadable --input', () => capture({ ids: [], input: '/nonexistent/ids.txt' }), /cannot read --input/],
  ])('%s', async (_name, opts, message) => {
    const f = fakeContext({ routes });
    const o = opts();
    const err = await ('retryUnknown' in o ? refundPayments(o, f.ctx) : capturePayments(o, f.ctx)).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(message);
    expect(f.sent).toHaveLength(0);
  });

  it('--recheck of a journal that does not exist', async () => {
    const f = fakeContext({ routes });
    const journal = join(f.home, 'missing.ndjson');
    await expect(refundPayments(refunds({ ids: [], recheck: true, journal }), f.ctx)).rejects.toThrow(/no journal/);
    expect(f.sent).toHaveLength(0);
  });

  it.each([
    ['without --confirm-live', {}],
    ['with another profile named', { confirmLive: 'staging' }],
  ])('a live profile without a terminal, %s: a usage error naming the flags, nothing sent', async (_name, o) => {
    const f = fakeContext({ routes });
    f.ctx.credentials = liveProfile;
    const err = await capturePayments(capture(o), f.ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch('"prod" is a live profile and there is no terminal to confirm on');
    expect((err as Error).message).toMatch('--yes --confirm-live prod');
    expect(f.sent).toHaveLength(0);
    // The plan is frozen before the question: the journal holds it, and no run.
    const [name] = readdirSync(join(f.home, 'journals')).filter((n) => n.endsWith('.ndjson'));
    const types = readFileSync(join(f.home, 'journals', name!), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { type: string }).type);
    expect(types).toEqual(['plan', 'row', 'row', 'planned']);
  });

  it('declined at the question: nothing sent', async () => {
    const f = fakeContext({ routes, confirm: false });
    await expect(capturePayments(capture(), f.ctx)).rejects.toThrow(/declined at a confirmation: nothing was sent/);
    expect(f.questions).toEqual([
      "Capture 2 payment(s) at each payment's full authorized amount, read when it is sent?",
    ]);
    expect(f.sent).toHaveLength(0);
  });
});

describe('bulk run', () => {
  it('--dry-run lists each request and the total, and sends nothing', async () => {
    const f = fakeContext({ routes, settings: { dryRun: true } });
    const result = await refundPayments(refunds({ amount: '100' }), f.ctx);
    const rows = await rowsOf(result);
    expect(rows).toEqual([
      { method: 'POST', url: `http://127.0.0.1:9/v1/payments/${PAY}/refund`, body: { amount: 100 } },
      { method: 'POST', url: `http://127.0.0.1:9/v1/payments/${PAY2}/refund`, body: { amount: 100 } },
    ]);
    expect(result.type === 'many' && result.after?.(2)).toMatch(/nothing sent \(2 refund\(s\), total ₹2.00/);
    expect(f.sent).toHaveLength(0);
  });

  it('--dry-run without amounts says so in words, never a count as a total; --read fetches and totals', async () => {
    const f = fakeContext({ routes, settings: { dryRun: true } });
    const result = await capturePayments(capture(), f.ctx);
    await rowsOf(result);
    const note = result.type === 'many' ? result.after?.(2) : undefined;
    expect(note).toMatch(/2 capture\(s\) at each payment's full authorized amount; not read in a dry run/);
    expect(note).not.toMatch(/total 2/);
    expect(f.sent).toHaveLength(0);

    const read = fakeContext({ routes, settings: { dryRun: true } });
    const totalled = await capturePayments(capture({ read: true }), read.ctx);
    await rowsOf(totalled);
    expect(totalled.type === 'many' && totalled.after?.(2)).toMatch(
      /2 capture\(s\), total ₹1,000.00 .*read from the service now/,
    );
    expect(read.sent.every((r) => r.method === 'GET')).toBe(true);
  });

  it('--dry-run as a table: every request in one dry-run result', async () => {
    const f = fakeContext({ routes, settings: { dryRun: true, format: 'table' } });
    const result = await capturePayments(capture(), f.ctx);
    expect(result).toMatchObject({ type: 'dry-run', requests: [{ body: { amount: `<amount of ${PAY}>` } }, {}] });
    expect(f.sent).toHaveLength(0);
  });

  it('a live profile with --yes --confirm-live NAME runs; one row per payment, a journal named after the run', async () => {
    const f = fakeContext({ routes });
    f.ctx.credentials = liveProfile;
    const result = await capturePayments(capture({ confirmLive: 'prod' }), f.ctx);
    const rows = (await rowsOf(result)) as Array<{ payment_id: string; result: string }>;
    expect(rows.map((r) => [r.payment_id, r.result]).sort()).toEqual([
      [PAY, 'done'],
      [PAY2, 'done'],
    ]);
    if (result.type !== 'many') throw new Error('rows expected');
    await result.finish?.();
    expect(f.sent.filter((r) => r.method === 'POST')).toHaveLength(2);
    expect(readdirSync(join(f.home, 'journals'))).toEqual([
      expect.stringMatching(/^capture-prod-[0-9a-f]{16}\.ndjson$/),
    ]);
  });

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
    const result = await refundPayments(refunds({ journal }), f.ctx);
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
    await expect(refundPayments(refunds({ journal, amount: undefined }), again.ctx)).rejects.toThrow(
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
      refunds({ ids: [PAY], amount: '700', journal: join(f.home, 'r.ndjson') }),
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
      const result = await refundPayments(refunds({ ids: [PAY], amount, journal: join(f.home, 'r.ndjson') }), f.ctx);
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
      refunds({ ids: [PAY], amount: '700', journal: join(f.home, 'f.ndjson') }),
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
    const first = await refundPayments(refunds({ journal, amount: '700', concurrency: '1' }), f.ctx);
    await rowsOf(first);
    if (first.type === 'many') await Promise.resolve(first.finish?.()).catch(() => undefined);
    const again = fakeContext({
      routes: { 'GET /payments/:id': (_req, p) => ({ body: payment(p.id!) }) },
      confirm: false,
    });
    await expect(refundPayments(refunds({ journal, amount: '700' }), again.ctx)).rejects.toThrow(
      /declined at a confirmation/,
    );
    expect(again.questions).toEqual([
      'Resume: 1 of 2 done by the earlier run. Refund the remaining 1 payment(s), total ₹7.00 (700 paise)?',
    ]);
  });
});
