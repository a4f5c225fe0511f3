import { describe, expect, it } from 'vitest';
import { createOrder, listOrders } from '../../../../src/commands/orders/handlers';
import type { CreateOrderOptions } from '../../../../src/commands/orders/handlers';
import { fakeContext, expectDryRun, expectUsageError } from '../fake-context';

const order = (id: string, amount = 50000) => ({
  id,
  entity: 'order',
  amount,
  currency: 'INR',
  status: 'created',
  receipt: null,
  notes: [],
  created_at: 1_790_000_000,
});
const create = (o: Partial<CreateOrderOptions> = {}): CreateOrderOptions => ({
  amount: '50000',
  currency: 'INR',
  manualCapture: false,
  notes: [],
  ...o,
});

describe('orders create', () => {
  it.each([
    ['full capture', create(), { amount: 50000, currency: 'INR', payment_capture: true }],
    ['manual capture', create({ manualCapture: true }), { payment_capture: false }],
    ['receipt and notes', create({ receipt: 'rcpt-42', notes: ['a=1'] }), { receipt: 'rcpt-42', notes: { a: '1' } }],
  ])('%s: sends one POST /orders with that body', async (_name, opts, body) => {
    const f = fakeContext({ routes: { 'POST /orders': { body: order('order_new1') } } });
    const result = await createOrder(opts, f.ctx);
    expect(f.sent).toHaveLength(1);
    expect(f.sent[0]).toMatchObject({ method: 'POST', path: '/orders', body });
    expect(result).toMatchObject({ type: 'one', kind: 'order', data: { id: 'order_new1' } });
  });

  it.each([
    ['an amount with a decimal point', create({ amount: '500.00' }), /--amount/],
    ['a currency that is not 3 letters', create({ currency: 'RUPEE' }), /--currency/],
    ['a note without =', create({ notes: ['oops'] }), /--note/],
    ['a receipt over 40 characters', create({ receipt: 'r'.repeat(41) }), /receipt/],
  ])('%s: a usage error, nothing sent', async (_name, opts, message) => {
    await expectUsageError(createOrder, opts, message);
  });

  it('--dry-run returns the request and sends nothing', async () => {
    await expectDryRun(createOrder, create(), { method: 'POST', path: '/orders' });
  });
});

describe('orders list', () => {
  const page = { entity: 'collection', count: 2, items: [order('order_a'), order('order_b')] };

  it('one page with the filters as query parameters', async () => {
    const f = fakeContext({ routes: { 'GET /orders': { body: page } } });
    const result = await listOrders({ all: false, authorized: true, receipt: 'rcpt-1', count: '2' }, f.ctx);
    if (result.type !== 'many') throw new Error(`expected rows, got ${result.type}`);
    const rows: unknown[] = [];
    for await (const row of result.items) rows.push(row);
    expect(rows.map((r) => (r as { id: string }).id)).toEqual(['order_a', 'order_b']);
    expect(f.sent[0]).toMatchObject({
      method: 'GET',
      path: '/orders',
      query: { count: 2, authorized: true, receipt: 'rcpt-1' },
    });
  });

  it.each([
    ['--from after --to', { from: '2024-05-01', to: '2024-04-01' }, /--from is after --to/],
    ['--limit with --count', { limit: '5', count: '5' }, /--count and --skip pick one page/],
    ['--count with --all', { all: true, count: '5' }, /--count and --skip pick one page/],
    ['--count over 100', { count: '101' }, /--count/],
  ])('%s: a usage error, nothing sent', async (_name, extra, message) => {
    const f = fakeContext({ routes: { 'GET /orders': { body: page } } });
    await expect(listOrders({ all: false, authorized: false, ...extra }, f.ctx)).rejects.toThrow(message);
    expect(f.sent).toHaveLength(0);
  });
});
