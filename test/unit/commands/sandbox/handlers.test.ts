import { describe, expect, it } from 'vitest';
import {
  advanceClock,
  createCustomer,
  listEvents,
  resetSandbox,
  seedSandbox,
  showClock,
  showAccount,
  showStats,
  simulatePayment,
} from '../../../../src/commands/sandbox/handlers';
import type { PayOptions } from '../../../../src/commands/sandbox/handlers';
import { UsageError } from '../../../../src/contract/errors';
import { fakeContext, expectUsageError } from '../fake-context';

const seeded = { order_ids: ['order_a', 'order_b'], payment_ids: ['pay_x'], customer_ids: [] };
const pay = (o: Partial<PayOptions> = {}): PayOptions => ({
  id: 'order_DBJOWzybf0sJbb',
  method: 'card',
  fail: false,
  ...o,
});

describe('sandbox pay', () => {
  it.each([
    [
      'an order',
      pay({ email: 'a@example.com' }),
      '/_sandbox/checkout',
      { order_id: 'order_DBJOWzybf0sJbb', method: 'card', fail: false, email: 'a@example.com' },
    ],
    ['an order, upi, failing', pay({ method: 'upi', fail: true }), '/_sandbox/checkout', { method: 'upi', fail: true }],
    [
      'a subscription',
      pay({ id: 'sub_DBJOWzybf0sJbb', method: 'wallet' }),
      '/_sandbox/subscriptions/authorize',
      { subscription_id: 'sub_DBJOWzybf0sJbb', method: 'wallet', fail: false },
    ],
  ])('%s: one admin POST with that body', async (_name, opts, path, body) => {
    const f = fakeContext({
      routes: {
        'POST /_sandbox/checkout': { body: { id: 'pay_new', entity: 'payment' } },
        'POST /_sandbox/subscriptions/authorize': { body: { id: 'sub_DBJOWzybf0sJbb', entity: 'subscription' } },
      },
    });
    const result = await simulatePayment(opts, f.ctx);
    expect(f.sent).toEqual([expect.objectContaining({ method: 'POST', path, body: expect.objectContaining(body) })]);
    expect(result).toMatchObject({ type: 'one', kind: path.endsWith('checkout') ? 'payment' : 'subscription' });
  });

  it('an id that is neither an order nor a subscription: a usage error, nothing sent', async () => {
    const f = fakeContext();
    await expect(simulatePayment(pay({ id: 'pay_DBJOWzybf0sJbb' }), f.ctx)).rejects.toThrow(UsageError);
    expect(f.sent).toHaveLength(0);
  });
});

describe('sandbox clock', () => {
  it('shows the sandbox time', async () => {
    const f = fakeContext({ routes: { 'GET /_sandbox/clock': { body: { now: 1_790_000_000, offset: 0 } } } });
    expect(await showClock({}, f.ctx)).toEqual({
      type: 'one',
      kind: 'generic',
      data: { now: 1_790_000_000, offset: 0 },
    });
  });

  it.each([
    ['6d', 6 * 86_400],
    ['90m', 5400],
    ['3600', 3600],
  ])('advance %s sends %i seconds', async (duration, seconds) => {
    const f = fakeContext({ routes: { 'POST /_sandbox/clock/advance': { body: { now: 1, offset: seconds } } } });
    const result = await advanceClock({ duration }, f.ctx);
    expect(f.sent[0]).toMatchObject({ method: 'POST', path: '/_sandbox/clock/advance', body: { seconds } });
    expect(result).toMatchObject({ type: 'one', data: { offset: seconds } });
  });

  it('advance by something that is not a duration: a usage error naming DURATION, nothing sent', async () => {
    const f = fakeContext();
    await expect(advanceClock({ duration: 'soon' }, f.ctx)).rejects.toThrow(/DURATION/);
    expect(f.sent).toHaveLength(0);
  });
});

describe('sandbox reset', () => {
  it('sends POST /_sandbox/reset and says what it deleted', async () => {
    const f = fakeContext({ routes: { 'POST /_sandbox/reset': { body: { reset: true } } } });
    const result = await resetSandbox({}, f.ctx);
    expect(f.sent).toEqual([expect.objectContaining({ method: 'POST', path: '/_sandbox/reset' })]);
    expect(result).toEqual({ type: 'done', message: expect.stringMatching(/^sandbox reset: every resource/) });
  });

  it('a sandbox that refuses: the error goes up, no message of success', async () => {
    const f = fakeContext({
      routes: {
        'POST /_sandbox/reset': {
          status: 400,
          body: { error: { code: 'BAD_REQUEST_ERROR', description: 'the sandbox is busy' } },
        },
      },
    });
    await expect(resetSandbox({}, f.ctx)).rejects.toThrow(/the sandbox is busy/);
  });
});

describe('sandbox seed', () => {
  it.each([
    ['no count: 20 orders', {}, { orders: 20, authorized: 0 }, ['order_a', 'order_b'], /printing order ids/],
    ['N orders', { orders: '100' }, { orders: 100, authorized: 0 }, ['order_a', 'order_b'], /printing order ids/],
    ['--authorized only', { authorized: '5' }, { orders: 0, authorized: 5 }, ['pay_x'], /printing payment ids/],
    ['both', { orders: '3', authorized: '1' }, { orders: 3, authorized: 1 }, ['pay_x'], /printing payment ids/],
  ])('%s: sends that body, prints the ids one a line', async (_name, opts, body, ids, notice) => {
    const f = fakeContext({ routes: { 'POST /_sandbox/seed': { body: seeded } } });
    const result = await seedSandbox(opts, f.ctx);
    expect(f.sent).toEqual([expect.objectContaining({ method: 'POST', path: '/_sandbox/seed', body })]);
    expect(result).toEqual({ type: 'lines', lines: ids, json: ids });
    expect(f.stderr()).toMatch(/^seeded 2 orders, 1 authorized payment; /);
    expect(f.stderr()).toMatch(notice);
  });

  it.each([
    ['a count that is not a number', { orders: 'many' }, /N/],
    ['a count over 100000', { orders: '100001' }, /N/],
    ['a negative --authorized', { authorized: '-1' }, /--authorized/],
  ])('%s: a usage error, nothing sent', async (_name, opts, message) => {
    await expectUsageError(seedSandbox, opts, message);
  });
});

describe('sandbox seed --wallet and sandbox account', () => {
  it('--wallet N: sends wallets, prints the wallet customer ids and the statement command for their span', async () => {
    const from = Date.parse('2026-11-22T00:30:00Z') / 1000;
    const answer = {
      order_ids: [],
      payment_ids: [],
      customer_ids: ['cust_A', 'cust_B'],
      wallet_customer_ids: ['cust_A', 'cust_B'],
      wallet_span: { from, to: from + 3 * 86_400 },
    };
    const f = fakeContext({ routes: { 'POST /_sandbox/seed': { body: answer } } });
    const result = await seedSandbox({ wallet: '30' }, f.ctx);
    expect(f.sent[0]).toMatchObject({ path: '/_sandbox/seed', body: { orders: 0, authorized: 0, wallets: 30 } });
    expect(result).toEqual({ type: 'lines', lines: ['cust_A', 'cust_B'], json: ['cust_A', 'cust_B'] });
    expect(f.stderr()).toMatch(
      /^seeded 2 customers with wallets, 30 statement entries each from 2026-11-22 to 2026-11-25/,
    );
    expect(f.stderr()).toContain('try: payctl wallet statement cust_A --from 2026-11-22 --to 2026-11-25');
  });

  it('--wallet 0 is a usage error, nothing sent', async () => {
    const f = fakeContext();
    await expect(seedSandbox({ wallet: '0' }, f.ctx)).rejects.toThrow(/--wallet/);
    expect(f.sent).toHaveLength(0);
  });

  it('account: the merchant account as one record; on a table, its balance in words', async () => {
    const account = {
      entity: 'merchant_account',
      balance: 150000,
      currency: 'INR',
      captured_less_refunded: 200000,
      transferred_to_wallets: 50000,
    };
    const f = fakeContext({ routes: { 'GET /_sandbox/account': { body: account } }, settings: { format: 'table' } });
    expect(await showAccount({}, f.ctx)).toEqual({ type: 'one', kind: 'generic', data: account });
    expect(f.stderr()).toMatch(/^merchant account balance ₹1,500.00 \(150000 paise\): what wallet credits/);
  });
});

describe('sandbox stats and events', () => {
  it('stats: the sandbox counters as one record', async () => {
    const stats = { requests: 12, writes: { captures: 1, refunds: 0 } };
    const f = fakeContext({ routes: { 'GET /_sandbox/stats': { body: stats } } });
    expect(await showStats({}, f.ctx)).toEqual({ type: 'one', kind: 'generic', data: stats });
    expect(f.sent).toEqual([expect.objectContaining({ method: 'GET', path: '/_sandbox/stats' })]);
  });

  it('events: the items as rows', async () => {
    const items = [{ id: 'evt_1', event: 'payment.captured' }];
    const f = fakeContext({ routes: { 'GET /_sandbox/events': { body: { items } } } });
    expect(await listEvents({}, f.ctx)).toEqual({ type: 'many', kind: 'event', items });
  });
});

describe('sandbox customer create', () => {
  it('sends the given fields only', async () => {
    const f = fakeContext({ routes: { 'POST /_sandbox/customers': { body: { id: 'cust_1', entity: 'customer' } } } });
    const result = await createCustomer({ contact: '+919876543210', name: 'Asha Rao' }, f.ctx);
    expect(f.sent[0]).toMatchObject({
      path: '/_sandbox/customers',
      body: { contact: '+919876543210', name: 'Asha Rao' },
    });
    expect(JSON.parse(JSON.stringify(f.sent[0]!.body))).not.toHaveProperty('email');
    expect(result).toMatchObject({ type: 'one', kind: 'customer', data: { id: 'cust_1' } });
  });
});
