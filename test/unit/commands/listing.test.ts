import { describe, expect, it } from 'vitest';
import { listPayments } from '../../../src/commands/payments/handlers';
import { fakeContext } from './fake-context';

const payment = (i: number) => ({
  id: `pay_${String(i).padStart(14, '0')}`,
  entity: 'payment',
  amount: 100,
  currency: 'INR',
  status: i % 3 === 0 ? 'authorized' : 'captured',
  created_at: 1_790_000_000 - i,
});
const all = Array.from({ length: 250 }, (_, i) => payment(i));
const route = (req: { query?: Record<string, unknown> }) => {
  const skip = Number(req.query?.skip ?? 0);
  const count = Number(req.query?.count ?? 10);
  return { body: { entity: 'collection', count, items: all.slice(skip, skip + count) } };
};
async function rows(result: Awaited<ReturnType<typeof listPayments>>) {
  if (result.type !== 'many') throw new Error(result.type);
  const got: unknown[] = [];
  for await (const r of result.items) got.push(r);
  return { got, after: result.after?.(got.length) };
}

describe('a list to a pipe in a machine format is complete', () => {
  it.each(['json', 'ndjson', 'csv'] as const)('-o %s to a pipe walks every page', async (format) => {
    const f = fakeContext({ settings: { format }, routes: { 'GET /payments': route } });
    const { got, after } = await rows(await listPayments({ all: false }, f.ctx));
    expect(got).toHaveLength(250);
    expect(after).toBe('totals: amount INR ₹250.00 (25000 paise)');
  });

  it('--status to a pipe: every payment of that status, not a page of them', async () => {
    const f = fakeContext({ routes: { 'GET /payments': route } });
    const { got } = await rows(await listPayments({ all: false, status: 'authorized' }, f.ctx));
    expect(got).toHaveLength(all.filter((p) => p.status === 'authorized').length);
  });

  it('--limit N stays exact and says it stopped; --count is one page, as asked', async () => {
    const f = fakeContext({ routes: { 'GET /payments': route } });
    const limited = await rows(await listPayments({ all: false, limit: '15' }, f.ctx));
    expect(limited.got).toHaveLength(15);
    expect(limited.after).toMatch(/--limit 15/);
    const g = fakeContext({ routes: { 'GET /payments': route } });
    const page = await rows(await listPayments({ all: false, count: '20' }, g.ctx));
    expect(page.got).toHaveLength(20);
    expect(page.after).toMatch(/more may exist: --all/);
  });

  it('on a terminal: one page, and a full page says more may exist', async () => {
    const f = fakeContext({ settings: { format: 'table' }, routes: { 'GET /payments': route } });
    const result = await listPayments({ all: false }, f.ctx);
    if (result.type !== 'many') throw new Error(result.type);
    const got: unknown[] = [];
    for await (const r of result.items) got.push(r);
    expect(got).toHaveLength(10);
    expect(result.after?.(10)).toMatch(/^one page of 10 payments shown; more may exist: --all/);
  });
});
