import { describe, expect, it } from 'vitest';
import { optionsOf } from '../argv';
import { getRefund, listRefunds } from '../../../../src/commands/refunds/handlers';
import { ApiError, UsageError } from '../../../../src/contract/errors';
import { fakeContext } from '../fake-context';
import { PAY, refund, rowsOf } from '../payments/fixtures';

const RFND = 'rfnd_FP8QHiV938haTz';
const page = (...items: unknown[]) => ({ body: { entity: 'collection', count: items.length, items } });

describe('refunds list', () => {
  it('all refunds: GET /refunds with the page asked for', async () => {
    const f = fakeContext({ routes: { 'GET /refunds': page(refund(RFND, PAY, 100)) } });
    const rows = await rowsOf(await listRefunds({ all: false, count: '5', skip: '10' }, f.ctx));
    expect(rows).toEqual([refund(RFND, PAY, 100)]);
    expect(f.sent).toEqual([
      expect.objectContaining({ method: 'GET', path: '/refunds', query: { count: 5, skip: 10 } }),
    ]);
  });

  it('--payment: GET /payments/:id/refunds, every page with --all', async () => {
    const f = fakeContext({
      routes: {
        'GET /payments/:id/refunds': (req, { id }) => {
          const skip = Number(req.query?.skip ?? 0);
          const all = Array.from({ length: 100 }, (_, i) => refund(`rfnd_${String(i).padStart(14, '0')}`, id!, 1));
          return page(...all.slice(skip, skip + Number(req.query?.count ?? 10)));
        },
      },
    });
    const rows = await rowsOf(await listRefunds({ all: true, payment: ` ${PAY} ` }, f.ctx));
    expect(rows).toHaveLength(100);
    // Pages are asked until one comes back short, all of them of that payment's list.
    expect(f.sent.length).toBeGreaterThanOrEqual(2);
    expect(new Set(f.sent.map((r) => `${r.method} ${r.path}`))).toEqual(new Set([`GET /payments/${PAY}/refunds`]));
  });

  it('--dry-run shows the request and sends nothing', async () => {
    const f = fakeContext({ settings: { dryRun: true } });
    const result = await listRefunds({ all: false, payment: PAY }, f.ctx);
    expect(result).toMatchObject({ type: 'dry-run', requests: [{ method: 'GET', path: `/payments/${PAY}/refunds` }] });
    expect(f.sent).toHaveLength(0);
  });

  it.each([
    ['a --payment that is not a payment id', { payment: RFND }, /payment id must look like pay_/],
    ['--count with --all', { all: true, count: '5' }, /--count and --skip pick one page/],
  ])('%s: a usage error, nothing sent', async (_name, extra, message) => {
    const f = fakeContext();
    const run = listRefunds({ all: false, ...extra }, f.ctx);
    await expect(run).rejects.toThrow(UsageError);
    await expect(listRefunds({ all: false, ...extra }, f.ctx)).rejects.toThrow(message);
    expect(f.sent).toHaveLength(0);
  });

  it('--fields is checked against the refund record', async () => {
    const f = fakeContext({ settings: { fields: ['id', 'amont'] } });
    await expect(listRefunds({ all: false }, f.ctx)).rejects.toThrow(
      /refund rows have no column "amont" \(did you mean amount\?\)/,
    );
    const ok = fakeContext({
      settings: { fields: ['id', 'speed_requested', 'notes.payctl_key', 'created_at_iso'] },
      routes: { 'GET /refunds': page() },
    });
    await expect(listRefunds({ all: false }, ok.ctx)).resolves.toMatchObject({ type: 'many', kind: 'refund' });
  });
});

describe('refunds get', () => {
  it('GET /refunds/:id: the record as one refund', async () => {
    const f = fakeContext({ routes: { 'GET /refunds/:id': (_req, { id }) => ({ body: refund(id!, PAY, 700) }) } });
    expect(await getRefund({ ids: [RFND] }, f.ctx)).toMatchObject({
      type: 'one',
      kind: 'refund',
      data: { id: RFND, amount: 700 },
    });
  });

  it("the service's refusal is an ApiError; a malformed id is a usage error with nothing sent", async () => {
    const f = fakeContext();
    await expect(getRefund({ ids: ['rfnd_AAAAAAAAAAAAAA'] }, f.ctx)).rejects.toBeInstanceOf(ApiError);
    const bad = fakeContext();
    await expect(getRefund({ ids: ['rfnd_1/../x'] }, bad.ctx)).rejects.toThrow(/refund id must look like rfnd_/);
    expect(bad.sent).toHaveLength(0);
  });
});

describe('argv to options', () => {
  it.each([
    [
      ['refunds', 'list'],
      {
        all: false,
        from: undefined,
        to: undefined,
        count: undefined,
        skip: undefined,
        limit: undefined,
        payment: undefined,
      },
    ],
    [
      ['refunds', 'list', '--payment', PAY, '--from', '7d', '--to', 'today', '--all', '--limit', '50'],
      { all: true, from: '7d', to: 'today', count: undefined, skip: undefined, limit: '50', payment: PAY },
    ],
    [
      ['-o', 'csv', 'refunds', 'list', '--count', '5', '--skip', '10'],
      { all: false, from: undefined, to: undefined, count: '5', skip: '10', limit: undefined, payment: undefined },
    ],
    [['refunds', 'get', RFND], { ids: [RFND] }],
  ])('payctl %s', async (argv, want) => {
    expect(await optionsOf(argv)).toEqual(want);
  });
});
