import { describe, expect, it } from 'vitest';
import {
  cancelSubscription,
  createSubscription,
  getSubscription,
} from '../../../../src/commands/subscriptions/handlers';
import type { CreateSubscriptionOptions } from '../../../../src/commands/subscriptions/handlers';
import { OutcomeUnknownError, UsageError } from '../../../../src/contract/errors';
import { fakeContext, expectDryRun, expectUsageError } from '../fake-context';

const SUB = 'sub_Kq2vX9pLm4Tz8w';
const PLAN = 'plan_Jd8x3kQpL2mZ7v';
/** 2026-11-23T10:00:00Z, the fake context's clock. */
const NOW = Date.parse('2026-11-23T10:00:00Z') / 1000;
const subscription = (status = 'created') => ({
  id: SUB,
  entity: 'subscription',
  plan_id: PLAN,
  status,
  notes: [],
  created_at: NOW,
});
const create = (o: Partial<CreateSubscriptionOptions> = {}): CreateSubscriptionOptions => ({
  plan: PLAN,
  totalCount: '12',
  notes: [],
  ...o,
});

describe('subscriptions create', () => {
  it.each([
    ['the service default for notifying', create(), { plan_id: PLAN, total_count: 12 }, ['customer_notify']],
    ['--notify', create({ notify: true }), { customer_notify: 1 }, []],
    ['--no-notify', create({ notify: false }), { customer_notify: 0 }, []],
    ['--customer', create({ customer: 'cust_Kq2vX9pLm4Tz8w' }), { customer_id: 'cust_Kq2vX9pLm4Tz8w' }, []],
    ['--start-at in Unix seconds', create({ startAt: String(NOW + 86_400) }), { start_at: NOW + 86_400 }, []],
    // Asia/Kolkata is the fake context's zone: tomorrow starts at 18:30 UTC today.
    [
      '--start-at tomorrow',
      create({ startAt: 'tomorrow' }),
      { start_at: Date.parse('2026-11-23T18:30:00Z') / 1000 },
      [],
    ],
    ['a note', create({ notes: ['source=web'] }), { notes: { source: 'web' } }, ['start_at']],
  ])('%s: sends one POST /subscriptions with that body', async (_name, opts, body, absent) => {
    const f = fakeContext({ routes: { 'POST /subscriptions': { body: subscription() } } });
    const result = await createSubscription(opts, f.ctx);
    expect(f.sent).toHaveLength(1);
    expect(f.sent[0]).toMatchObject({ method: 'POST', path: '/subscriptions', body });
    const wire = JSON.parse(JSON.stringify(f.sent[0]!.body)) as object;
    for (const key of absent) expect(wire).not.toHaveProperty(key);
    expect(result).toEqual({ type: 'one', kind: 'subscription', data: subscription() });
  });

  it.each([
    ['a plan id that is not plan_…', create({ plan: 'sub_x1' }), /plan id/],
    ['a total count of 0', create({ totalCount: '0' }), /--total-count/],
    ['a total count with a decimal point', create({ totalCount: '1.5' }), /--total-count/],
    ['a start-at in the past', create({ startAt: 'yesterday' }), /--start-at must not be in the past/],
    ['a start-at an hour ago', create({ startAt: String(NOW - 3600) }), /--start-at must not be in the past/],
    ['a start-at in milliseconds', create({ startAt: String((NOW + 60) * 1000) }), /milliseconds/],
    ['a start-at that is not a time', create({ startAt: 'soon' }), /cannot read time/],
    ['a customer id that is not cust_…', create({ customer: 'order_Kq2vX9pLm4Tz8w' }), /customer id/],
  ])('%s: a usage error, nothing sent', async (_name, opts, message) => {
    await expectUsageError(createSubscription, opts, message);
  });

  it('--dry-run returns the request and sends nothing', async () => {
    await expectDryRun(createSubscription, create({ startAt: 'next-month' }), {
      method: 'POST',
      path: '/subscriptions',
    });
  });
});

describe('subscriptions get', () => {
  it('reads the subscription; a bad id is a usage error with nothing sent; --dry-run sends nothing', async () => {
    const routes = { 'GET /subscriptions/:id': { body: subscription('active') } };
    const f = fakeContext({ routes });
    expect(await getSubscription({ id: SUB }, f.ctx)).toMatchObject({ type: 'one', data: { status: 'active' } });
    expect(f.sent).toEqual([expect.objectContaining({ method: 'GET', path: `/subscriptions/${SUB}` })]);

    const bad = fakeContext({ routes });
    await expect(getSubscription({ id: '../plans' }, bad.ctx)).rejects.toThrow(UsageError);
    expect(bad.sent).toHaveLength(0);

    const dry = fakeContext({ routes, settings: { dryRun: true } });
    expect(await getSubscription({ id: SUB }, dry.ctx)).toMatchObject({ type: 'dry-run' });
    expect(dry.sent).toHaveLength(0);
  });
});

describe('subscriptions cancel', () => {
  const routes = { 'POST /subscriptions/:id/cancel': { body: subscription('cancelled') } };

  it.each([
    ['now', false, 0],
    ['at the end of the cycle', true, 1],
  ])('%s: sends cancel_at_cycle_end=%s', async (_name, atCycleEnd, flag) => {
    const f = fakeContext({ routes });
    const result = await cancelSubscription({ id: SUB, atCycleEnd }, f.ctx);
    expect(f.sent).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: `/subscriptions/${SUB}/cancel`,
        body: { cancel_at_cycle_end: flag },
      }),
    ]);
    expect(result).toMatchObject({ type: 'one', kind: 'subscription', data: { status: 'cancelled' } });
  });

  it('--dry-run sends nothing; a bad id is a usage error with nothing sent', async () => {
    const dry = fakeContext({ routes, settings: { dryRun: true } });
    expect(await cancelSubscription({ id: SUB, atCycleEnd: false }, dry.ctx)).toMatchObject({ type: 'dry-run' });
    expect(dry.sent).toHaveLength(0);
    const bad = fakeContext({ routes });
    await expect(cancelSubscription({ id: 'plan_x1', atCycleEnd: false }, bad.ctx)).rejects.toThrow(UsageError);
    expect(bad.sent).toHaveLength(0);
  });

  it('a lost answer names `payctl subscriptions get` as the check', async () => {
    const f = fakeContext({ routes: { 'POST /subscriptions/:id/cancel': { body: { unexpected: true } } } });
    const err = await cancelSubscription({ id: SUB, atCycleEnd: false }, f.ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as OutcomeUnknownError).check).toContain(`payctl subscriptions get ${SUB}`);
    expect(f.sent).toHaveLength(1);
  });
});
