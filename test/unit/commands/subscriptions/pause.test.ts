import { describe, expect, it } from 'vitest';
import {
  listSubscriptions,
  pauseSubscription,
  resumeSubscription,
} from '../../../../src/commands/subscriptions/handlers';
import { DeclinedError, FailureError } from '../../../../src/contract/errors';
import { expectDryRun, expectUsageError, fakeContext } from '../fake-context';

const SUB = 'sub_Kq2vX9pLm4Tz8w';
const PLAN = 'plan_Jd8x3kQpL2mZ7v';
const sub = (status: string) => ({ id: SUB, entity: 'subscription', plan_id: PLAN, status, created_at: 1 });
const routes = (before: string, after: string) => ({
  'GET /subscriptions/:id': { body: sub(before) },
  'POST /subscriptions/:id/pause': { body: sub(after) },
  'POST /subscriptions/:id/resume': { body: sub(after) },
});

describe('subscriptions pause and resume', () => {
  it.each([
    ['pause', pauseSubscription, 'active', 'paused', { pause_at: 'now' }, /Pause subscription .* now\?/],
    ['resume', resumeSubscription, 'paused', 'active', { resume_at: 'now' }, /Resume subscription .* now\?/],
  ] as const)(
    '%s: asks first (reading the subscription), then one POST',
    async (verb, handler, before, after, body, q) => {
      const f = fakeContext({ routes: routes(before, after) });
      expect(await handler({ id: SUB }, f.ctx)).toEqual({ type: 'one', kind: 'subscription', data: sub(after) });
      expect(f.questions).toHaveLength(1);
      expect(f.questions[0]).toMatch(q);
      expect(f.questions[0]).toContain(PLAN);
      expect(f.sent.map((r) => `${r.method} ${r.path}`)).toEqual([
        `GET /subscriptions/${SUB}`,
        `POST /subscriptions/${SUB}/${verb}`,
      ]);
      expect(f.sent[1]!.body).toEqual(body);
    },
  );

  it('a subscription in the wrong state is refused before anything is sent', async () => {
    const f = fakeContext({ routes: routes('cancelled', 'cancelled') });
    const err = await pauseSubscription({ id: SUB }, f.ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FailureError);
    expect((err as Error).message).toContain('only an active one can be paused');
    expect(f.sent.map((r) => r.method)).toEqual(['GET']);
  });

  it('declined: nothing is sent', async () => {
    const f = fakeContext({ routes: routes('paused', 'active'), confirm: false });
    expect(await resumeSubscription({ id: SUB }, f.ctx).catch((e: unknown) => e)).toBeInstanceOf(DeclinedError);
    expect(f.sent.map((r) => r.method)).toEqual(['GET']);
  });

  it('--dry-run shows the request; a bad id is a usage error', async () => {
    await expectDryRun(pauseSubscription, { id: SUB }, { method: 'POST', path: `/subscriptions/${SUB}/pause` });
    await expectUsageError(resumeSubscription, { id: 'plan_1' }, /subscription id/);
  });
});

describe('subscriptions list', () => {
  it('--plan is the plan_id query; a bad plan id is a usage error', async () => {
    const f = fakeContext({
      routes: { 'GET /subscriptions': { body: { entity: 'collection', count: 1, items: [sub('active')] } } },
    });
    await listSubscriptions({ all: false, plan: PLAN }, f.ctx);
    expect(f.sent[0]).toMatchObject({ method: 'GET', path: '/subscriptions', query: { plan_id: PLAN } });
    await expectUsageError(listSubscriptions, { all: false, plan: 'sub_1' }, /plan id/);
  });
});
