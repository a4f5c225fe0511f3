import { describe, expect, it } from 'vitest';
import { optionsOf } from './argv';

/**
 * argv to the handler's typed options, through the real program (see ./argv): a few commands of every
 * group, their flags spelt as users type them. A mapping that drops or renames an option fails here; one
 * that reads an option the command does not declare does not compile.
 */
describe('argv to options', () => {
  it.each<[string[], unknown]>([
    [
      ['orders', 'list', '--authorized', '--receipt', 'r-1', '--from', '7d'],
      { from: '7d', all: false, authorized: true, receipt: 'r-1' },
    ],
    [
      [
        'orders',
        'create',
        '--amount',
        '50000',
        '--currency',
        'INR',
        '--manual-capture',
        '--note',
        'a=1',
        '--note',
        'b=2',
      ],
      { amount: '50000', currency: 'INR', notes: ['a=1', 'b=2'], manualCapture: true },
    ],
    [
      ['payments', 'list', '--status', 'captured', '--all', '--limit', '20'],
      { limit: '20', all: true, status: 'captured' },
    ],
    [['payments', 'get', 'pay_29QQoUBi66xm2f'], { ids: ['pay_29QQoUBi66xm2f'] }],
    [
      [
        'payments',
        'capture',
        'pay_29QQoUBi66xm2f',
        'pay_29QQoUBi66xm2g',
        '--amount',
        '100',
        '--currency',
        'INR',
        '--concurrency',
        '4',
      ],
      {
        ids: ['pay_29QQoUBi66xm2f', 'pay_29QQoUBi66xm2g'],
        concurrency: '4',
        read: false,
        newRun: false,
        recheck: false,
        skipInvalid: false,
        amount: '100',
        currency: 'INR',
      },
    ],
    [
      [
        'payments',
        'refund',
        'pay_29QQoUBi66xm2f',
        '--amount',
        '100',
        '--note',
        'reason=x',
        '--idempotency-key',
        'k1234567890',
        '--retry-unknown',
      ],
      {
        ids: ['pay_29QQoUBi66xm2f'],
        read: false,
        newRun: false,
        recheck: false,
        skipInvalid: false,
        amount: '100',
        notes: ['reason=x'],
        retryUnknown: true,
        idempotencyKey: 'k1234567890',
      },
    ],
    [
      [
        'plans',
        'create',
        '--period',
        'monthly',
        '--interval',
        '1',
        '--name',
        'Gold',
        '--amount',
        '49900',
        '--currency',
        'INR',
      ],
      { period: 'monthly', interval: '1', name: 'Gold', amount: '49900', currency: 'INR', notes: [] },
    ],
    [
      ['subscriptions', 'create', '--plan', 'plan_00000000000001', '--total-count', '12', '--note', 'x=y'],
      { plan: 'plan_00000000000001', totalCount: '12', notes: ['x=y'] },
    ],
    [
      ['subscriptions', 'cancel', 'sub_00000000000001', '--at-cycle-end'],
      { id: 'sub_00000000000001', atCycleEnd: true },
    ],
    [
      ['wallet', 'statement', 'cust_4xbQrmEoA5WJ0G', 'cust_4xbQrmEoA5WJ0H', '--from', '7d', '--oldest-first'],
      {
        from: '7d',
        all: false,
        customers: ['cust_4xbQrmEoA5WJ0G', 'cust_4xbQrmEoA5WJ0H'],
        oldestFirst: true,
        skipMissing: false,
      },
    ],
    [['wallet', 'balance', 'cust_4xbQrmEoA5WJ0G'], { customer: 'cust_4xbQrmEoA5WJ0G' }],
    [
      [
        'wallet',
        'payout',
        'cust_4xbQrmEoA5WJ0G',
        '--fund-account',
        'fa_00000000000001',
        '--amount',
        '100',
        '--purpose',
        'refund',
      ],
      {
        customer: 'cust_4xbQrmEoA5WJ0G',
        fundAccount: 'fa_00000000000001',
        amount: '100',
        purpose: 'refund',
        notes: [],
      },
    ],
    [
      ['profile', 'add', 'live', '--key-id', 'rzp_live_x', '--live', '--default'],
      { name: 'live', keyId: 'rzp_live_x', keySecretStdin: false, live: true, makeDefault: true },
    ],
    [['profile', 'show'], {}],
    [['profile', 'use', 'live'], { name: 'live' }],
    [['sandbox', 'seed', '5', '--wallet', '2'], { orders: '5', wallet: '2' }],
    [['sandbox', 'pay', 'order_00000000000001', '--fail'], { id: 'order_00000000000001', method: 'card', fail: true }],
    [['sandbox', 'clock', 'advance', '1d'], { duration: '1d' }],
    [
      ['api', 'POST', '/orders', '-F', 'amount=100', '-f', 'receipt=r'],
      { methodOrPath: 'POST', path: '/orders', fields: ['amount=100'], rawFields: ['receipt=r'], all: false },
    ],
    [
      ['api', '/payments', '--all', '--limit', '5'],
      { methodOrPath: '/payments', fields: [], rawFields: [], all: true, limit: '5' },
    ],
    [
      ['mcp', '--allow-writes', '--max-amount', '50000'],
      {
        allowWrites: true,
        maxAmount: '50000',
        tokenTtl: '300',
        groups: expect.arrayContaining([expect.objectContaining({ name: 'payments' })]),
      },
    ],
    [['mcp', 'log'], {}],
  ])('payctl %j', async (argv, want) => {
    expect(await optionsOf(argv)).toEqual(want);
  });
});
