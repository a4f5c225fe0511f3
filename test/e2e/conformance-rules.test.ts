import { beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, sandboxForFile } from './harness';
import { checkout as sandboxCheckout, createPlan, openwalletPayment, refusal, sdkFor } from './sdk';
import type { Json } from './sdk';

// The rule cases of the spec (sections 3, 4 and 8) not covered in conformance.test.ts, through the
// official SDK: limits, order states, cancel at cycle end, account balance, payout fields, 429.

const sb = sandboxForFile();
let rzp: Json;
beforeAll(async () => {
  rzp = sdkFor(sb);
});

const checkout = (order_id: string, extra?: Record<string, unknown>) => sandboxCheckout(sb, order_id, extra);

describe('limits and list rules', () => {
  it('count defaults to 10, from/to bound created_at, notes hold at most 15 pairs of 256 characters', async () => {
    for (let i = 0; i < 12; i++) await rzp.orders.create({ amount: 100 + i, currency: 'INR' });
    expect((await rzp.orders.all()).count).toBe(10);
    const clock = (await sb.admin<{ now: number }>('GET', '/clock')).now;
    expect((await rzp.orders.all({ from: clock + 3600 })).count).toBe(0);
    expect((await rzp.orders.all({ to: clock - 3600 })).count).toBe(0);
    const many = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, 'v']));
    expect((await refusal(rzp.orders.create({ amount: 100, currency: 'INR', notes: many }))).statusCode).toBe(400);
    expect(
      (await refusal(rzp.orders.create({ amount: 100, currency: 'INR', notes: { k: 'v'.repeat(257) } }))).error
        .description,
    ).toMatch(/256 characters/);
    expect((await refusal(rzp.payments.all({ count: 101 }))).statusCode).toBe(400);
    expect((await refusal(rzp.payments.fetch('pay_00000000000000', { 'expand[]': 'card' }))).error.description).toMatch(
      /^expand.* is\/are not required and should not be sent$/,
    );
  });

  it('an order: created, attempted on each attempt (failed ones too), paid on capture, then no further payments', async () => {
    const order = await rzp.orders.create({ amount: 3000, currency: 'INR', payment_capture: true });
    await checkout(order.id, { fail: true });
    let listed = (await rzp.orders.all({ count: 100 })).items.find((o: Json) => o.id === order.id);
    expect(listed).toMatchObject({ status: 'attempted', attempts: 1, amount_paid: 0 });
    await checkout(order.id);
    listed = (await rzp.orders.all({ count: 100 })).items.find((o: Json) => o.id === order.id);
    expect(listed).toMatchObject({ status: 'paid', attempts: 2, amount_paid: 3000, amount_due: 0 });
    expect((await checkout(order.id)).error.description).toMatch(/no further payments/);
  });
});

describe('subscriptions', () => {
  it('cancel at cycle end lets the paid period run out, then charges nothing more', async () => {
    const plan = await createPlan(rzp, 'weekly', { name: 'W', amount: 700 });
    const sub = await rzp.subscriptions.create({ plan_id: plan.id, total_count: 5 });
    await sb.admin('POST', '/subscriptions/authorize', { subscription_id: sub.id });
    expect(await rzp.subscriptions.cancel(sub.id, true)).toMatchObject({
      status: 'active',
      has_scheduled_changes: true,
    });
    await sb.admin('POST', '/clock/advance', { seconds: 30 * 86_400 });
    expect(await rzp.subscriptions.fetch(sub.id)).toMatchObject({ status: 'cancelled', paid_count: 1 });
  });

  it('refuses an unknown plan, a total_count of 0 and a start_at in the past', async () => {
    expect(
      (await refusal(rzp.subscriptions.create({ plan_id: 'plan_00000000000000', total_count: 1 }))).error.field,
    ).toBe('plan_id');
    const plan = await createPlan(rzp, 'daily', { name: 'D', amount: 100 });
    expect((await refusal(rzp.subscriptions.create({ plan_id: plan.id, total_count: 0 }))).statusCode).toBe(400);
    expect(
      (await refusal(rzp.subscriptions.create({ plan_id: plan.id, total_count: 1, start_at: 1_000_000 }))).error.field,
    ).toBe('start_at');
    expect(
      (
        await refusal(
          rzp.plans.create({ period: 'hourly', interval: 1, item: { name: 'H', amount: 1, currency: 'INR' } }),
        )
      ).error.description,
    ).toMatch(/period/);
  });
});

describe('wallet rules', () => {
  it('a transfer beyond the account balance fails; wallet payments and payouts check their fields', async () => {
    const c = (await sb.admin<Json>('POST', '/customers', { contact: '+919876543210' })).id;
    const huge = await refusal(rzp.transfers.create({ customer_id: c, amount: 999_999_999, currency: 'INR' }));
    expect(huge.error.description).toMatch(/account balance/);
    const wp = { ...(await openwalletPayment(rzp, c, 100)), method: 'card' };
    expect((await refusal(rzp.api.post({ url: '/payments/create/openwallet', data: wp }))).error.field).toBe('method');
    expect(
      (
        await refusal(
          rzp.api.post({ url: '/payments/create/openwallet', data: { ...wp, method: 'wallet', currency: 'USD' } }),
        )
      ).error.field,
    ).toBe('currency');
    const fa = {
      customer_id: c,
      account_type: 'vpa',
      bank_account: { name: 'A', ifsc: 'HDFC0001234', account_number: '12345' },
    };
    expect((await refusal(rzp.fundAccount.create(fa))).error.field).toBe('account_type');
    const payout = { fund_account_id: 'fa_00000000000000', purpose: 'refund', amount: 1, currency: 'INR' };
    expect(
      (await refusal(rzp.api.post({ url: `/customers/${c}/payouts`, data: { ...payout, narration: 'no-dashes' } })))
        .error.description,
    ).toMatch(/a-z, A-Z, 0-9 and space/);
    expect(
      (
        await refusal(
          rzp.api.post({ url: `/customers/${c}/payouts`, data: { ...payout, reference_id: 'r'.repeat(41) } }),
        )
      ).error.field,
    ).toBe('reference_id');
    expect((await refusal(rzp.api.get({ url: `/customers/${c}/statement`, data: { count: 101 } }))).statusCode).toBe(
      400,
    );
  });
});

describe('rate limit', () => {
  it('past --rate-limit the SDK gets 429 with the error object', async () => {
    const limited = await startSandbox(['--rate-limit', '2']);
    try {
      const client = sdkFor(limited);
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => client.orders.all()));
      const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused[0]).toMatchObject({ statusCode: 429, error: { code: 'BAD_REQUEST_ERROR' } });
    } finally {
      await limited.stop();
    }
  });
});
