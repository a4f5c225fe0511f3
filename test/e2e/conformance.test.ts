import { beforeAll, describe, expect, it } from 'vitest';
import { sandboxForFile } from './harness';
import { missingKeys, realFixture } from '../real-keys';
import { checkout as sandboxCheckout, createPlan, refusal, sandboxCustomer, sdkFor } from './sdk';
import type { Json } from './sdk';

// The official Node SDK (`razorpay`, unchanged) against `payctl sandbox start`: every documented
// endpoint (spec section 4) and every rule case of the spec, as an integrating engineer would call them.

const sb = sandboxForFile();
let rzp: Json;
beforeAll(async () => {
  rzp = sdkFor(sb);
});

const checkout = (order_id: string, extra?: Record<string, unknown>) => sandboxCheckout(sb, order_id, extra);
const customer = (contact?: string) => sandboxCustomer(sb, contact);

describe('orders', () => {
  it('create answers the order record; list filters by receipt, authorized=1 and authorized=0', async () => {
    const receipt = `conf-${Date.now()}`;
    const paid = await rzp.orders.create({
      amount: 10000,
      currency: 'INR',
      receipt,
      payment_capture: true,
      notes: { k: 'v' },
    });
    expect(paid).toMatchObject({
      entity: 'order',
      status: 'created',
      amount: 10000,
      amount_paid: 0,
      amount_due: 10000,
      attempts: 0,
      receipt,
      notes: { k: 'v' },
    });
    expect(paid.id).toMatch(/^order_[A-Za-z0-9]{14}$/);
    const held = await rzp.orders.create({ amount: 20000, currency: 'INR', receipt, payment_capture: false });
    const open = await rzp.orders.create({ amount: 30000, currency: 'INR', receipt });
    const declined = await rzp.orders.create({ amount: 40000, currency: 'INR', receipt });
    await checkout(paid.id);
    await checkout(held.id);
    await checkout(declined.id, { fail: true });

    const all = await rzp.orders.all({ receipt, count: 100 });
    expect(all).toMatchObject({ entity: 'collection', count: 4 });
    expect(all.items.map((o: Json) => o.id)).toEqual([declined.id, open.id, held.id, paid.id]); // most recent first
    const authorized = await rzp.orders.all({ receipt, authorized: 1 });
    expect(authorized.items.map((o: Json) => o.id).sort()).toEqual([held.id, paid.id].sort());
    const notAuthorized = await rzp.orders.all({ receipt, authorized: 0 });
    expect(notAuthorized.items.map((o: Json) => o.id).sort()).toEqual([open.id, declined.id].sort());
  });

  it('refuses fields the endpoint does not take, with the real message, and stores nothing', async () => {
    const before = (await rzp.orders.all({ count: 100 })).count;
    for (const [body, field] of [
      [{ amount: 100, currency: 'INR', foo: 'bar' }, 'foo'],
      [{ amount: 100, currency: 'INR', partial_payment: true }, 'partial_payment'],
    ] as const) {
      const err = await refusal(rzp.orders.create(body));
      expect(err.statusCode).toBe(400);
      expect(err.error).toMatchObject({
        code: 'BAD_REQUEST_ERROR',
        description: `${field} is/are not required and should not be sent`,
        field,
      });
    }
    expect((await rzp.orders.all({ count: 100 })).count).toBe(before);
  });

  it('refuses a receipt over 40 characters and a count over 100', async () => {
    expect(
      (await refusal(rzp.orders.create({ amount: 100, currency: 'INR', receipt: 'r'.repeat(41) }))).error.description,
    ).toMatch(/receipt may not be greater than 40 characters/);
    const count = await refusal(rzp.orders.all({ count: 101 }));
    expect(count).toMatchObject({
      statusCode: 400,
      error: { code: 'BAD_REQUEST_ERROR', description: 'The count may not be greater than 100.' },
    });
  });
});

describe('payments', () => {
  it('fetch, list, capture with the exact amount and currency only, refund in part and in full', async () => {
    const order = await rzp.orders.create({ amount: 25000, currency: 'INR', payment_capture: false });
    const pay = await checkout(order.id);
    expect(await rzp.payments.fetch(pay.id)).toMatchObject({
      entity: 'payment',
      status: 'authorized',
      captured: false,
      order_id: order.id,
    });
    expect((await rzp.payments.all({ count: 5 })).items.some((p: Json) => p.id === pay.id)).toBe(true);

    expect((await refusal(rzp.payments.capture(pay.id, 20000, 'INR'))).error.field).toBe('amount');
    expect((await refusal(rzp.payments.capture(pay.id, 25000, 'USD'))).error.field).toBe('currency');
    expect(await rzp.payments.capture(pay.id, 25000, 'INR')).toMatchObject({ status: 'captured', captured: true });
    expect((await refusal(rzp.payments.capture(pay.id, 25000, 'INR'))).error.description).toMatch(
      /already been captured/,
    );
    expect(
      await rzp.orders.all({ count: 100 }).then((l: Json) => l.items.find((o: Json) => o.id === order.id)),
    ).toMatchObject({ status: 'paid', amount_paid: 25000, amount_due: 0 });

    const part = await rzp.payments.refund(pay.id, { amount: 10000, receipt: 'r-1', notes: { why: 'damaged' } });
    expect(part).toMatchObject({
      entity: 'refund',
      amount: 10000,
      payment_id: pay.id,
      status: 'processed',
      receipt: 'r-1',
    });
    expect((await refusal(rzp.payments.refund(pay.id, { amount: 20000 }))).error.field).toBe('amount');
    expect((await refusal(rzp.payments.refund(pay.id, { amount: 100, reverse_all: 1 }))).error.description).toBe(
      'reverse_all is/are not required and should not be sent',
    );
    await rzp.payments.refund(pay.id);
    expect(await rzp.payments.fetch(pay.id)).toMatchObject({
      status: 'refunded',
      amount_refunded: 25000,
      refund_status: 'full',
    });
  });

  it('an authorized payment left past the 5-day capture window is refunded automatically and cannot be captured', async () => {
    const order = await rzp.orders.create({ amount: 5000, currency: 'INR', payment_capture: false });
    const pay = await checkout(order.id);
    await sb.admin('POST', '/clock/advance', { seconds: 5 * 86_400 + 60 });
    expect(await rzp.payments.fetch(pay.id)).toMatchObject({ status: 'refunded', amount_refunded: 5000 });
    expect((await refusal(rzp.payments.capture(pay.id, 5000, 'INR'))).statusCode).toBe(400);
  });
});

describe('plans and subscriptions', () => {
  it('created until sandbox pay authorises it, then active; fetch; cancel; unknown fields refused', async () => {
    const plan = await createPlan(rzp, 'monthly', { name: 'Gold', amount: 49900 });
    expect(plan).toMatchObject({ entity: 'plan', period: 'monthly', item: { amount: 49900, hsn_code: null } });
    expect(
      (
        await refusal(
          rzp.plans.create({
            period: 'monthly',
            interval: 1,
            item: { name: 'G', amount: 1, currency: 'INR', hsn_code: 'x' },
          }),
        )
      ).error.description,
    ).toBe('item.hsn_code is/are not required and should not be sent');
    const sub = await rzp.subscriptions.create({ plan_id: plan.id, total_count: 3, customer_notify: 1 });
    expect(sub).toMatchObject({ entity: 'subscription', status: 'created', paid_count: 0, customer_id: null });
    const paid = await sb.admin<Json>('POST', '/subscriptions/authorize', { subscription_id: sub.id });
    expect(paid).toMatchObject({ status: 'active', paid_count: 1, remaining_count: 2 });
    expect(await rzp.subscriptions.fetch(sub.id)).toMatchObject({
      status: 'active',
      customer_id: expect.stringMatching(/^cust_/),
    });
    expect(
      (await refusal(rzp.subscriptions.create({ plan_id: plan.id, total_count: 3, addons: [] }))).error.field,
    ).toBe('addons');
    expect(await rzp.subscriptions.cancel(sub.id, false)).toMatchObject({ status: 'cancelled' });
    expect((await refusal(rzp.subscriptions.cancel(sub.id))).error.description).toMatch(/not cancellable/);
  });
});

describe('records as the SDK receives them', () => {
  it('carry every key of the real payload of the same resource', async () => {
    const order = await rzp.orders.create({ amount: 80000, currency: 'INR', payment_capture: true });
    const pay = await checkout(order.id);
    const plan = await createPlan(rzp, 'weekly', { name: 'K', amount: 100 });
    const sub = await rzp.subscriptions.create({ plan_id: plan.id, total_count: 2 });
    const c = await customer();
    const fa = await rzp.fundAccount.create({
      customer_id: c,
      account_type: 'bank_account',
      bank_account: { name: 'A', ifsc: 'HDFC0001234', account_number: '5010001234' },
    });
    const got: Array<[Json, string]> = [
      [(await rzp.orders.all({ count: 100 })).items.find((o: Json) => o.id === order.id), 'order.json'],
      [await rzp.payments.fetch(pay.id), 'payment_captured.json'],
      [await rzp.payments.refund(pay.id, { amount: 100 }), 'refund.json'],
      [plan, 'plan.json'],
      [sub, 'subscription.json'],
      [
        await rzp.payments.transfer(pay.id, { transfers: [{ customer: c, amount: 1000, currency: 'INR' }] }),
        'transfer.json',
      ],
      [fa, 'fund_account.json'],
      [
        await rzp.api.post({
          url: `/customers/${c}/payouts`,
          data: { fund_account_id: fa.id, purpose: 'refund', amount: 500, currency: 'INR' },
        }),
        'payout.json',
      ],
    ];
    for (const [record, file] of got) expect(missingKeys(realFixture(file), record), file).toEqual([]);
  });
});

describe('errors', () => {
  it('401 for a wrong key, NA metadata for an unknown URL, the error object on every refusal', async () => {
    const wrong = await refusal(sdkFor(sb, 'not-the-secret').orders.all());
    expect(wrong.statusCode).toBe(401);
    expect(wrong.error.code).toBe('BAD_REQUEST_ERROR');
    const unknown = await refusal(rzp.api.get({ url: '/no/such/thing' }));
    expect(unknown).toMatchObject({
      statusCode: 400,
      error: { code: 'BAD_REQUEST_ERROR', source: 'NA', step: 'NA', reason: 'NA', metadata: {} },
    });
  });
});
