import { describe, expect, it } from 'vitest';
import { getPayment, listPayments } from '../../../../src/commands/payments/handlers';
import { ApiError, UsageError } from '../../../../src/contract/errors';
import { fakeContext } from '../fake-context';
import { PAY, payment, rowsOf } from './fixtures';

/** 130 payments, most recent first: of the first 100 every twentieth authorized, of the last 30 every third. */
const all = Array.from({ length: 130 }, (_, n) =>
  payment(`pay_${String(n).padStart(14, '0')}`, {
    status: (n < 100 ? n % 20 === 0 : n % 3 === 0) ? 'authorized' : 'captured',
    created_at: 1_790_000_000 - n,
  }),
);
const pages = (query: Record<string, unknown> | undefined) => {
  const skip = Number(query?.skip ?? 0);
  const items = all.slice(skip, skip + Number(query?.count ?? 10));
  return { body: { entity: 'collection', count: items.length, items } };
};

describe('payments list', () => {
  it('--status on a terminal walks pages until it has a page of rows of that status', async () => {
    const f = fakeContext({ settings: { format: 'table' }, routes: { 'GET /payments': (req) => pages(req.query) } });
    const rows = (await rowsOf(await listPayments({ all: false, status: 'authorized' }, f.ctx))) as Array<{
      id: string;
      status: string;
    }>;
    expect(rows).toHaveLength(10);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['authorized']));
    expect(rows[0]!.id).toBe('pay_00000000000000');
    expect(f.sent.map((r) => [r.method, r.path, r.query?.count, r.query?.skip ?? 0])).toEqual([
      ['GET', '/payments', 100, 0],
      ['GET', '/payments', 100, 99],
      // The second page was short: the page that would show whether more exist was asked before the rows were read.
      ['GET', '/payments', 100, 129],
    ]);
  });

  it('without --status: one page, as the service answers it', async () => {
    const f = fakeContext({ routes: { 'GET /payments': (req) => pages(req.query) } });
    const rows = await rowsOf(await listPayments({ all: false, count: '5' }, f.ctx));
    expect(rows).toHaveLength(5);
    expect(f.sent).toHaveLength(1);
    expect(f.sent[0]).toMatchObject({ method: 'GET', path: '/payments', query: { count: 5 } });
  });

  it('--dry-run shows the first request and sends nothing', async () => {
    const f = fakeContext({ settings: { dryRun: true } });
    const result = await listPayments({ all: true, status: 'captured' }, f.ctx);
    expect(result).toMatchObject({ type: 'dry-run', requests: [{ method: 'GET', path: '/payments' }] });
    expect(f.sent).toHaveLength(0);
  });

  it.each([
    ['--from after --to', { from: '2024-05-01', to: '2024-04-01' }, /--from is after --to/],
    ['--count with --all', { all: true, count: '5' }, /--count and --skip pick one page/],
  ])('%s: a usage error, nothing sent', async (_name, extra, message) => {
    const f = fakeContext();
    await expect(listPayments({ all: false, status: 'authorized', ...extra }, f.ctx)).rejects.toThrow(message);
    expect(f.sent).toHaveLength(0);
  });
});

describe('payments get', () => {
  it('reads one payment', async () => {
    const f = fakeContext({ routes: { 'GET /payments/:id': (_req, p) => ({ body: payment(p.id!) }) } });
    const result = await getPayment({ ids: [PAY] }, f.ctx);
    expect(result).toMatchObject({ type: 'one', kind: 'payment', data: { id: PAY, amount: 50000 } });
    expect(f.sent).toEqual([expect.objectContaining({ method: 'GET', path: `/payments/${PAY}` })]);
  });

  it('an id that is not a payment id: a usage error, nothing sent', async () => {
    const f = fakeContext();
    await expect(getPayment({ ids: ['order_29QQoUBi66xm2f'] }, f.ctx)).rejects.toThrow(UsageError);
    await expect(getPayment({ ids: ['pay_../orders'] }, f.ctx)).rejects.toThrow(/payment id must look like/);
    expect(f.sent).toHaveLength(0);
  });

  it("the service's refusal is its error", async () => {
    const f = fakeContext();
    await expect(getPayment({ ids: [PAY] }, f.ctx)).rejects.toThrow(ApiError);
  });

  it('--dry-run sends nothing', async () => {
    const f = fakeContext({ settings: { dryRun: true } });
    expect(await getPayment({ ids: [PAY] }, f.ctx)).toMatchObject({ type: 'dry-run', requests: [{ method: 'GET' }] });
    expect(f.sent).toHaveLength(0);
  });
});
