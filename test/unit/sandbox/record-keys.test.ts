import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox';
import type { RunningSandbox } from '../../../src/sandbox';
import { missingKeys, realFixture } from '../../real-keys';
import type { Obj } from '../../real-keys';

// Every record the sandbox returns carries every key the real service's payload of the same resource
// carries (test/fixtures/real/, vendored from the official SDKs' fixtures), `null` where it has no value.

const real = realFixture;
const firstItem = (file: string) => (real(file).items as Obj[])[0]!;

let sb: RunningSandbox;
const records: Record<string, Obj> = {};

async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Obj> {
  const auth = 'Basic ' + Buffer.from(`${sb.keyId}:${sb.keySecret}`).toString('base64');
  const res = await fetch(`${path.startsWith('/_sandbox') ? sb.origin : sb.baseUrl}${path}`, {
    method,
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Obj;
  if (res.status !== 200) throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
  return json;
}

beforeAll(async () => {
  sb = await startSandbox({ db: ':memory:' });
  const order = await call('POST', '/orders', {
    amount: 90000,
    currency: 'INR',
    receipt: 'keys',
    payment_capture: true,
  });
  const payment = await call('POST', '/_sandbox/checkout', { order_id: order.id, method: 'upi' });
  records.order = await call('GET', '/orders?receipt=keys').then((l) => (l.items as Obj[])[0]!);
  records.payment = await call('GET', `/payments/${String(payment.id)}`);
  records.refund = await call('POST', `/payments/${String(payment.id)}/refund`, { amount: 1000 });
  records.plan = await call('POST', '/plans', {
    period: 'monthly',
    interval: 1,
    item: { name: 'Gold', amount: 1000, currency: 'INR' },
  });
  const sub = await call('POST', '/subscriptions', { plan_id: records.plan.id, total_count: 2 });
  records.subscription_created = sub;
  records.subscription = await call('POST', '/_sandbox/subscriptions/authorize', { subscription_id: sub.id });
  const customer = await call('POST', '/_sandbox/customers', { contact: '+919876543210', name: 'Asha' });
  records.customer = customer;
  records.transfer = await call('POST', `/payments/${String(payment.id)}/transfers`, {
    transfers: [{ customer: customer.id, amount: 20000, currency: 'INR' }],
  });
  records.direct_transfer = await call('POST', '/transfers', {
    customer_id: customer.id,
    amount: 1000,
    currency: 'INR',
  });
  records.fund_account = await call('POST', '/fund_accounts', {
    customer_id: customer.id,
    account_type: 'bank_account',
    bank_account: { name: 'Asha', ifsc: 'HDFC0001234', account_number: '5010001234' },
  });
  records.payout = await call('POST', `/customers/${String(customer.id)}/payouts`, {
    fund_account_id: records.fund_account.id,
    purpose: 'refund',
    amount: 5000,
    currency: 'INR',
  });
  records.event = (await call('GET', '/_sandbox/events').then((l) =>
    (l.items as Obj[]).find((e) => e.event === 'payment.authorized'),
  ))!;
});
afterAll(async () => {
  await sb?.close();
});

const CASES: Array<[record: string, fixtures: Obj[]]> = [
  ['order', [real('order.json')]],
  ['payment', [real('payment_captured.json'), real('payment_authorized_netbanking.json')]],
  ['refund', [real('refund.json'), firstItem('refund_collection.json')]],
  ['plan', [real('plan.json')]],
  [
    'subscription',
    [real('subscription.json'), real('subscription_paused.json'), real('subscription_cancelled_with_customer.json')],
  ],
  ['subscription_created', [real('subscription.json'), real('subscription_cancelled_with_customer.json')]],
  ['customer', [real('customer.json')]],
  ['transfer', [real('transfer.json')]],
  // The direct-transfer payload is the legacy shape (`transfer_status`, `errors`); the current one is `transfer.json`.
  ['direct_transfer', [real('transfer.json')]],
  ['fund_account', [real('fund_account.json')]],
  ['payout', [real('payout.json'), real('payout_initiated.json')]],
  ['event', [real('webhook_payment_authorized.json')]],
];

describe('sandbox records carry every key of the real payloads', () => {
  it.each(CASES)('%s', (name, fixtures) => {
    const record = records[name]!;
    for (const fixture of fixtures) {
      expect(missingKeys(fixture, record), `${name} vs ${String(fixture.id)}`).toEqual([]);
    }
  });

  it('the payment inside an event carries every key of the real webhook payment but the pre-GST service_tax', () => {
    const inner = (real('webhook_payment_authorized.json').payload as Obj).payment as Obj;
    const actual = ((records.event!.payload as Obj).payment as Obj).entity as Obj;
    expect(missingKeys(inner.entity as Obj, actual).filter((k) => k !== 'service_tax')).toEqual([]);
    expect(actual).toHaveProperty('tax');
  });

  it('the comparison fails on a missing key, nested ones included', () => {
    expect(missingKeys({ a: 1, item: { hsn_code: null, name: 'x' } }, { a: 1, item: { name: 'x' } })).toEqual([
      'item.hsn_code',
    ]);
    expect(missingKeys({ customer_id: null }, {})).toEqual(['customer_id']);
  });
});
