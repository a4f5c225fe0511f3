import { beforeAll, describe, expect, it } from 'vitest';
import type Razorpay from 'razorpay';
import { sandboxForFile } from './harness';
import { refusal, sdkFor } from './sdk';
import type { Json } from './sdk';
import { SUBSCRIPTION_STATUSES, collection, customer, mismatches, plan, subscription } from './sdk-shapes';
import type { Shape } from './sdk-shapes';

// The official Node SDK (`razorpay`, unchanged, its calls type-checked against its own typings) against
// `payctl sandbox start`: plans, subscriptions and customers, each answer checked against the SDK's typings.

const sb = sandboxForFile();
let rzp: Razorpay;
beforeAll(() => {
  rzp = sdkFor(sb) as Razorpay;
});

function conforms(value: unknown, shape: Shape): void {
  expect(mismatches(value, shape)).toEqual([]);
}
function conformsAll(list: unknown, shape: Shape): Json[] {
  conforms(list, collection);
  const { items, count } = list as { items: Json[]; count: number };
  expect(count).toBe(items.length);
  for (const item of items) conforms(item, shape);
  return items;
}

const newPlan = (name: string, amount = 49900) =>
  rzp.plans.create({
    period: 'monthly',
    interval: 1,
    item: { name, amount, currency: 'INR', description: `${name} plan` },
    notes: { tier: name },
  });

/** The customer authorising at the sandbox's checkout: the subscription becomes active, its first cycle paid. */
const authorise = (subscription_id: string) => sb.admin<Json>('POST', '/subscriptions/authorize', { subscription_id });

describe('plans', () => {
  it('create, fetch and all answer plans as the SDK types them, most recent first', async () => {
    const gold = await newPlan('Gold');
    conforms(gold, plan);
    expect(gold).toMatchObject({ entity: 'plan', period: 'monthly', interval: 1, notes: { tier: 'Gold' } });
    expect(gold.item).toMatchObject({ name: 'Gold', amount: 49900, currency: 'INR', active: true });
    const silver = await newPlan('Silver', 9900);
    expect(await rzp.plans.fetch(gold.id)).toEqual(gold);
    const items = conformsAll(await rzp.plans.all({ count: 100 }), plan);
    expect(items.slice(0, 2).map((p) => p.id)).toEqual([silver.id, gold.id]);
    const page = conformsAll(await rzp.plans.all({ count: 1, skip: 1 }), plan);
    expect(page.map((p) => p.id)).toEqual([gold.id]);
    const missing = await refusal(rzp.plans.fetch('plan_000000000000Zz'));
    expect(missing.statusCode).toBe(400);
    expect(missing.error).toMatchObject({ code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist' });
  });
});

describe('subscriptions', () => {
  it('create, fetch and all (with plan_id) answer subscriptions as the SDK types them', async () => {
    const p = await newPlan('Listed');
    const other = await newPlan('Other');
    const sub = await rzp.subscriptions.create({
      plan_id: p.id,
      total_count: 6,
      customer_notify: 0,
      notes: { k: 'v' },
    });
    conforms(sub, subscription);
    expect(sub).toMatchObject({
      entity: 'subscription',
      plan_id: p.id,
      status: 'created',
      total_count: 6,
      paid_count: 0,
    });
    await rzp.subscriptions.create({ plan_id: other.id, total_count: 3 });
    expect(await rzp.subscriptions.fetch(sub.id)).toEqual(sub);
    const mine = conformsAll(await rzp.subscriptions.all({ plan_id: p.id }), subscription);
    expect(mine.map((s) => s.id)).toEqual([sub.id]);
    const all = conformsAll(await rzp.subscriptions.all({ count: 100 }), subscription);
    expect(all.length).toBeGreaterThanOrEqual(2);
    for (const s of all) expect(SUBSCRIPTION_STATUSES).toContain(s.status);
  });

  it('pause only an active one, resume only a paused one; cancel now or at cycle end', async () => {
    const p = await newPlan('Pausable');
    const sub = await rzp.subscriptions.create({ plan_id: p.id, total_count: 6 });
    const early = await refusal(rzp.subscriptions.pause(sub.id, { pause_at: 'now' }));
    expect(early.statusCode).toBe(400);
    expect(early.error.description).toBe('Subscription cannot be paused in created status');
    expect(await authorise(sub.id)).toMatchObject({ status: 'active', paid_count: 1 });

    const paused = await rzp.subscriptions.pause(sub.id, { pause_at: 'now' });
    conforms(paused, subscription);
    expect(paused).toMatchObject({ id: sub.id, status: 'paused', charge_at: null, paid_count: 1 });
    expect((await refusal(rzp.subscriptions.pause(sub.id, { pause_at: 'now' }))).error.description).toBe(
      'Subscription cannot be paused in paused status',
    );
    const resumed = await rzp.subscriptions.resume(sub.id, { resume_at: 'now' });
    conforms(resumed, subscription);
    expect(resumed).toMatchObject({ id: sub.id, status: 'active', paid_count: 1 });
    expect(resumed.charge_at).toBe(resumed.current_end);
    expect((await refusal(rzp.subscriptions.resume(sub.id, { resume_at: 'now' }))).error.description).toBe(
      'Subscription cannot be resumed in active status',
    );

    const atEnd = await rzp.subscriptions.cancel(sub.id, true);
    conforms(atEnd, subscription);
    expect(atEnd).toMatchObject({ status: 'active', has_scheduled_changes: true });
    const cancelled = await rzp.subscriptions.cancel(sub.id);
    conforms(cancelled, subscription);
    expect(cancelled).toMatchObject({ status: 'cancelled', charge_at: null });
    expect(typeof cancelled.ended_at).toBe('number');
  });
});

describe('customers', () => {
  it('create, fetch, all and edit answer customers as the SDK types them', async () => {
    const body = { name: 'Asha Rao', email: 'asha.sdk@example.com', contact: 9876543210, notes: { tier: 'gold' } };
    const asha = await rzp.customers.create(body);
    conforms(asha, customer);
    expect(asha).toMatchObject({ entity: 'customer', name: 'Asha Rao', contact: '9876543210', gstin: null });
    expect(asha.id).toMatch(/^cust_[A-Za-z0-9]{14}$/);
    expect(await rzp.customers.fetch(asha.id)).toEqual(asha);

    const vikram = await rzp.customers.create({
      name: 'Vikram',
      email: 'vikram.sdk@example.com',
      contact: '9123456780',
    });
    const items = conformsAll(await rzp.customers.all({ count: 100 }), customer);
    expect(items.slice(0, 2).map((c) => c.id)).toEqual([vikram.id, asha.id]);

    const edited = await rzp.customers.edit(asha.id, { email: 'asha.rao@example.com', name: 'Asha R' });
    conforms(edited, customer);
    expect(edited).toEqual({ ...asha, email: 'asha.rao@example.com', name: 'Asha R' });
    expect(await rzp.customers.fetch(asha.id)).toEqual(edited);
  });

  it('fail_existing: refused by default and with 1; 0 or false answers the existing customer', async () => {
    const body = { name: 'Meera', email: 'meera.sdk@example.com', contact: '9811122233' };
    const first = await rzp.customers.create(body);
    for (const call of [rzp.customers.create(body), rzp.customers.create({ ...body, fail_existing: 1 })]) {
      const err = await refusal(call);
      expect(err.statusCode).toBe(400);
      expect(err.error).toMatchObject({
        code: 'BAD_REQUEST_ERROR',
        description: 'Customer already exists for the merchant',
      });
    }
    expect(await rzp.customers.create({ ...body, fail_existing: 0 })).toEqual(first);
    expect(await rzp.customers.create({ ...body, name: 'Meera I', fail_existing: false })).toEqual(first);
  });

  it('an unknown customer, and fields the endpoint does not take, are refused as the service does', async () => {
    const missing = await refusal(rzp.customers.fetch('cust_000000000000Zz'));
    expect(missing.statusCode).toBe(400);
    expect(missing.error.description).toBe('The id provided does not exist');
    const err = await refusal(rzp.customers.create({ name: 'X', email: 'x@example.com', foo: 1 } as Json));
    expect(err.error).toMatchObject({ description: 'foo is/are not required and should not be sent', field: 'foo' });
  });
});
