import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capturePayments } from '../../../../src/commands/payments/capture';
import type { CapturePaymentsOptions } from '../../../../src/commands/payments/capture';
import { refundPayments } from '../../../../src/commands/payments/refund';
import { UsageError } from '../../../../src/contract/errors';
import { fakeContext } from '../fake-context';
import { PAY, PAY2, bulkRefund, liveProfile, payment, rowsOf } from './fixtures';

const flags = { newRun: false, recheck: false, skipInvalid: false };
const capture = (o: Partial<CapturePaymentsOptions> = {}): CapturePaymentsOptions => ({
  ids: [PAY, PAY2],
  ...flags,
  ...o,
});
const routes = {
  'GET /payments/:id': (_req: unknown, p: Record<string, string>) => ({
    body: payment(p.id!, { status: 'authorized', captured: false }),
  }),
  'POST /payments/:id/capture': (_req: unknown, p: Record<string, string>) => ({ body: payment(p.id!) }),
};

describe('bulk run: refused before anything is sent', () => {
  it.each([
    ['ids and --input', () => capture({ input: 'ids.txt' }), /not both/],
    [
      '--recheck with --retry-unknown',
      () => bulkRefund({ recheck: true, retryUnknown: true, journal: 'j' }),
      /--retry/,
    ],
    ['--recheck without a journal', () => bulkRefund({ ids: [], recheck: true }), /--recheck needs the journal/],
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
    await expect(refundPayments(bulkRefund({ ids: [], recheck: true, journal }), f.ctx)).rejects.toThrow(/no journal/);
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
    const result = await refundPayments(bulkRefund({ amount: '100' }), f.ctx);
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
});
