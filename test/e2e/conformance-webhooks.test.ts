import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Razorpay from 'razorpay';
import { run, runJson, sandboxForFile, startSandbox } from './harness';
import { createPlan, sdkFor, webhookReceiver } from './sdk';
import type { Json } from './sdk';

// A webhook handler with signature verification on (the SDK's validateWebhookSignature), behind a
// loopback receiver that refuses every event's first delivery: the sandbox must sign each one, retry
// it with the same event id and bytes, and list every attempt in `sandbox events`.

const SECRET = 'whsec-conformance-1';
let hooks: Awaited<ReturnType<typeof webhookReceiver>>;
const sb = sandboxForFile(async () => {
  hooks = await webhookReceiver(() => SECRET, { failFirst: true });
  return ['--webhook', hooks.url, '--webhook-secret', SECRET];
});
let rzp: Json;
beforeAll(() => {
  rzp = sdkFor(sb);
});
afterAll(async () => {
  await hooks?.close();
});

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/real/webhook_payment_authorized.json', import.meta.url), 'utf8'),
);
const arrived = (name: string, n = 1) =>
  expect.poll(() => hooks.events(name).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(n);
const advance = (seconds: number) => sb.admin('POST', '/clock/advance', { seconds });
const authorize = (subscription_id: string, extra: Record<string, unknown> = {}) =>
  sb.admin<Json>('POST', '/subscriptions/authorize', { subscription_id, ...extra });

describe('signed webhooks', () => {
  it('payment, order and refund events: signed, shaped like the real payload, retried under the same event id', async () => {
    const order = await rzp.orders.create({ amount: 70000, currency: 'INR', payment_capture: true });
    const pay = await sb.admin<Json>('POST', '/checkout', { order_id: order.id });
    await rzp.payments.refund(pay.id, { amount: 1000 });
    for (const name of ['payment.authorized', 'payment.captured', 'order.paid', 'refund.created', 'refund.processed'])
      await arrived(name);

    const [authorized] = hooks.events('payment.authorized').filter((d) => d.body.payload.payment.entity.id === pay.id);
    expect(authorized!.verified).toBe(true);
    expect(authorized!.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(authorized!.body).sort()).toEqual(expect.arrayContaining(Object.keys(fixture).sort()));
    expect(authorized!.body).toMatchObject({
      entity: 'event',
      event: 'payment.authorized',
      contains: ['payment'],
      payload: { payment: { entity: { id: pay.id, entity: 'payment', status: 'authorized' } } },
    });
    expect(Object.keys(authorized!.body.payload.payment.entity)).toEqual(
      expect.arrayContaining(Object.keys(fixture.payload.payment.entity).filter((k) => k !== 'service_tax')),
    );
    expect(hooks.events('order.paid').find((d) => d.body.payload.order.entity.id === order.id)!.body.contains).toEqual([
      'payment',
      'order',
    ]);
    expect(hooks.events('refund.processed').at(-1)!.body.payload).toMatchObject({
      refund: { entity: { amount: 1000 } },
      payment: { entity: { amount_refunded: 1000 } },
    });

    // Every event was refused once and delivered on the retry: same id, same bytes, both verified.
    const attempts = hooks.deliveries.filter((d) => d.eventId === authorized!.eventId);
    expect(attempts).toHaveLength(2);
    expect(attempts[0]!.raw).toBe(attempts[1]!.raw);
    expect(attempts.every((d) => d.verified)).toBe(true);
    // Each event has its own id.
    const five = ['payment.authorized', 'payment.captured', 'order.paid', 'refund.created', 'refund.processed'].map(
      (n) => hooks.events(n)[0]!.eventId,
    );
    expect(new Set(five).size).toBe(5);
    expect(five.every((id) => /^evt_[A-Za-z0-9]{14}$/.test(id))).toBe(true);
    // A handler with the wrong secret rejects them.
    expect(Razorpay.validateWebhookSignature(authorized!.raw, authorized!.signature, 'another-secret')).toBe(false);

    const listed = await runJson<Json[]>(sb, ['sandbox', 'events']);
    expect(listed.code, listed.stderr).toBe(0);
    const event = listed.data!.find((e) => e.id === authorized!.eventId);
    expect(event).toMatchObject({ event: 'payment.authorized', delivery: 'delivered', attempts: 2 });
    expect(event.deliveries.map((a: Json) => a.status)).toEqual([500, 200]);
    const table = await run(['sandbox', 'events', '-o', 'table'], { env: sb.env });
    expect(table.stdout).toContain(authorized!.eventId);
  });

  it('the subscription lifecycle: created, then sandbox pay makes it active with its events', async () => {
    const plan = await createPlan(rzp, 'weekly', { name: 'Tea', amount: 9900 });
    const sub = await rzp.subscriptions.create({ plan_id: plan.id, total_count: 2 });
    expect(sub.status).toBe('created');
    const paid = await run(['-o', 'json', 'sandbox', 'pay', sub.id], { env: sb.env });
    expect(paid.code, paid.stderr).toBe(0);
    expect(JSON.parse(paid.stdout)).toMatchObject({ id: sub.id, status: 'active', paid_count: 1 });
    for (const name of ['subscription.authenticated', 'subscription.activated', 'subscription.charged'])
      await arrived(name);
    const charged = hooks.events('subscription.charged').find((d) => d.body.payload.subscription.entity.id === sub.id)!;
    expect(charged.verified).toBe(true);
    expect(charged.body.contains).toEqual(['subscription', 'payment']);
    expect(charged.body.payload.payment.entity).toMatchObject({ status: 'captured', amount: 9900 });
    await advance(8 * 86_400);
    expect(await rzp.subscriptions.fetch(sub.id)).toMatchObject({
      status: 'completed',
      paid_count: 2,
      remaining_count: 0,
    });
    await arrived('subscription.completed');
  });

  it('a future start_at: created, authenticated after sandbox pay, active once the clock reaches it', async () => {
    const plan = await createPlan(rzp, 'monthly', { name: 'Coffee', amount: 19900 });
    const now = (await sb.admin<{ now: number }>('GET', '/clock')).now;
    const sub = await rzp.subscriptions.create({ plan_id: plan.id, total_count: 6, start_at: now + 3 * 86_400 });
    expect(sub.status).toBe('created');
    expect(await authorize(sub.id)).toMatchObject({ status: 'authenticated', paid_count: 0, auth_attempts: 1 });
    await advance(2 * 86_400);
    expect(await rzp.subscriptions.fetch(sub.id)).toMatchObject({ status: 'authenticated', paid_count: 0 });
    await advance(86_400 + 60);
    expect(await rzp.subscriptions.fetch(sub.id)).toMatchObject({
      status: 'active',
      paid_count: 1,
      current_start: now + 3 * 86_400,
    });
  });

  it('declined charges: pending, retried daily, halted; paying again charges the missed cycle', async () => {
    const plan = await createPlan(rzp, 'daily', { name: 'Daily', amount: 500 });
    const sub = await rzp.subscriptions.create({ plan_id: plan.id, total_count: 10 });
    expect((await authorize(sub.id, { fail: true })).status).toBe('created'); // authorisation declined
    expect(await authorize(sub.id)).toMatchObject({ status: 'active', paid_count: 1, auth_attempts: 2 });
    await authorize(sub.id, { fail: true }); // the card starts declining
    await advance(86_400 + 60);
    expect(await rzp.subscriptions.fetch(sub.id)).toMatchObject({ status: 'pending', paid_count: 1 });
    await advance(5 * 86_400);
    expect(await rzp.subscriptions.fetch(sub.id)).toMatchObject({ status: 'halted', paid_count: 1, charge_at: null });
    for (const name of ['subscription.pending', 'subscription.halted', 'payment.failed']) await arrived(name);
    expect(await authorize(sub.id)).toMatchObject({ status: 'active', paid_count: 2 });
    // The declined attempts and the one that paid are attempts on one order per cycle.
    const orders = (await rzp.orders.all({ count: 100 })).items.filter(
      (o: Json) => o.notes?.subscription_id === sub.id,
    );
    expect(orders.map((o: Json) => [o.status, o.attempts])).toEqual([
      ['paid', 5],
      ['paid', 2],
    ]);
  });

  it('transfer.processed, transfer.failed (for a refused transfer) and payout.updated, signed alike', async () => {
    const c = (await sb.admin<Json>('POST', '/customers', { contact: '+919876543210' })).id;
    await rzp.transfers.create({ customer_id: c, amount: 5000, currency: 'INR' });
    await expect(rzp.transfers.create({ customer_id: c, amount: 999_999_999, currency: 'INR' })).rejects.toMatchObject({
      statusCode: 400,
    });
    const fa = await rzp.fundAccount.create({
      customer_id: c,
      account_type: 'bank_account',
      bank_account: { name: 'A', ifsc: 'HDFC0001234', account_number: '5010001234' },
    });
    const payout = await rzp.api.post({
      url: `/customers/${c}/payouts`,
      data: { fund_account_id: fa.id, purpose: 'refund', amount: 2000, currency: 'INR' },
    });
    await advance(7200);
    for (const name of ['transfer.processed', 'transfer.failed', 'payout.updated']) await arrived(name);
    const failed = hooks.events('transfer.failed').find((d) => d.body.payload.transfer.entity.recipient === c)!;
    expect(failed.verified).toBe(true);
    expect(failed.body.payload.transfer.entity).toMatchObject({
      status: 'failed',
      error: { code: 'BAD_REQUEST_ERROR' },
    });
    const updated = hooks.events('payout.updated').find((d) => d.body.payload.payout.entity.id === payout.id)!;
    expect(updated.verified).toBe(true);
    expect(updated.body.payload.payout.entity).toMatchObject({
      status: 'processed',
      utr: expect.stringMatching(/^SBX/),
    });
  });

  it('without --webhook-secret a secret is generated, printed with the keys and signs the deliveries', async () => {
    let generated = '';
    const other = await webhookReceiver(() => generated);
    const sb2 = await startSandbox(['--webhook', other.url]);
    try {
      generated = sb2.webhookSecret;
      expect(generated).toMatch(/^whsec_[A-Za-z0-9]{24}$/);
      const order = await sdkFor(sb2).orders.create({ amount: 100, currency: 'INR' });
      await sb2.admin('POST', '/checkout', { order_id: order.id });
      await expect.poll(() => other.deliveries.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      expect(other.deliveries.every((d) => d.verified)).toBe(true);
    } finally {
      await sb2.stop();
      await other.close();
    }
  });

  it('a webhook that never answers: retried with growing waits, then failed after 24 h of sandbox time and disabled', async () => {
    const dead = await webhookReceiver(() => '');
    const url = dead.url;
    await dead.close(); // nothing listens there any more
    const sb3 = await startSandbox(['--webhook', url]);
    try {
      const order = await sdkFor(sb3).orders.create({ amount: 100, currency: 'INR' });
      await sb3.admin('POST', '/checkout', { order_id: order.id, fail: true });
      const events = async () => (await sb3.admin<{ items: Json[] }>('GET', '/events')).items;
      await expect.poll(async () => (await events())[0]?.attempts, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
      const early = (await events())[0];
      expect(early).toMatchObject({ event: 'payment.failed', delivery: 'retrying' });
      const at = early.deliveries.map((a: Json) => a.at);
      expect(at[2] - at[0]).toBeGreaterThanOrEqual(1); // waits of 0.5 s, then 1 s
      expect(early.deliveries[0]).toMatchObject({
        attempt: 1,
        status: null,
        error: expect.stringMatching(/^connection failed/),
      });

      await sb3.admin('POST', '/clock/advance', { seconds: 25 * 3600 });
      await expect.poll(async () => (await events())[0]?.delivery, { timeout: 10_000 }).toBe('failed');
      const hooks = await sb3.admin<{ items: Json[] }>('GET', '/webhooks');
      expect(hooks.items).toEqual([
        expect.objectContaining({
          url,
          disabled_reason: 'deliveries failed for 24 hours',
          disabled_at: expect.any(Number),
        }),
      ]);
      // A disabled webhook is sent nothing new: the event is held for it, not dropped.
      const next = await sdkFor(sb3).orders.create({ amount: 100, currency: 'INR' });
      await sb3.admin('POST', '/checkout', { order_id: next.id, fail: true });
      expect((await events())[0]).toMatchObject({ event: 'payment.failed', delivery: 'pending', attempts: 0 });
      // Visible in `webhooks deliveries`, and enabled again by a command.
      const listed = await run(['webhooks', 'deliveries', '-o', 'json'], { env: sb3.env });
      expect(listed.stderr).toMatch(
        /is disabled: deliveries failed for 24 hours; enable it: payctl webhooks enable wh_/,
      );
      expect(JSON.parse(listed.stdout).at(-1)).toMatchObject({ event: 'payment.failed', state: 'failed' });
      const enabled = await run(['webhooks', 'enable', '-o', 'json'], { env: sb3.env });
      expect(enabled.code, enabled.stderr).toBe(0);
      expect(JSON.parse(enabled.stdout)).toEqual([expect.objectContaining({ url, disabled_at: null, waiting: 1 })]);
      // Enabled: what was held is sent (and, the URL still dead, retried).
      await expect.poll(async () => (await events())[0]?.attempts, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    } finally {
      await sb3.stop();
    }
  });
});
