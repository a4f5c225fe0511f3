import { describe, expect, it } from 'vitest';
import { authoriseSubscription, createSubscription, run, runJson, sandboxForFile } from './harness';

interface Subscription {
  id: string;
  status: string;
  paid_count: number;
  remaining_count: number;
  total_count: number;
  charge_at: number | null;
  ended_at: number | null;
}
interface Payment {
  id: string;
  status: string;
  amount: number;
  notes: Record<string, string>;
}

const sb = sandboxForFile();

async function plan(period = 'monthly', amount = 49900) {
  const res = await runJson<{ id: string; item: { amount: number } }>(sb, [
    'plans',
    'create',
    '--period',
    period,
    '--interval',
    '1',
    '--name',
    'Gold',
    '--amount',
    String(amount),
    '--currency',
    'INR',
  ]);
  expect(res.code, res.stderr).toBe(0);
  expect(res.data!.id).toMatch(/^plan_[A-Za-z0-9]{14}$/);
  return res.data!.id;
}

/** Creates a subscription (`created` until the customer authorises it) and, unless told not to, authorises it with `sandbox pay`. */
async function subscribe(planId: string, total: number, extra: string[] = [], authorise = true) {
  const created = await createSubscription<Subscription>(sb, planId, total, extra);
  return authorise ? authoriseSubscription<Subscription>(sb, created.id) : created;
}

const get = async (id: string) => (await runJson<Subscription>(sb, ['subscriptions', 'get', id])).data!;
const advance = async (d: string) =>
  expect((await run(['sandbox', 'clock', 'advance', d], { env: sb.env })).code).toBe(0);

/** Captured payments charged for a subscription (each cycle is one). */
async function charges(subId: string): Promise<Payment[]> {
  const res = await runJson<Payment[]>(sb, ['payments', 'list', '--all']);
  return res.data!.filter((p) => p.notes?.subscription_id === subId && p.status === 'captured');
}

describe('subscriptions over sandbox time', () => {
  it('charges exactly total_count cycles as the clock passes, then completes', async () => {
    const planId = await plan('monthly', 49900);
    const sub = await subscribe(planId, 3);
    expect(sub.id).toMatch(/^sub_/);
    expect(sub).toMatchObject({ status: 'active', paid_count: 1, remaining_count: 2, total_count: 3 });
    await advance('40d');
    expect(await get(sub.id)).toMatchObject({ status: 'active', paid_count: 2, remaining_count: 1 });
    await advance('400d'); // far past the end: still only the cycles that exist
    const done = await get(sub.id);
    expect(done).toMatchObject({ status: 'completed', paid_count: 3, remaining_count: 0, charge_at: null });
    expect(done.ended_at).not.toBeNull();
    const paid = await charges(sub.id);
    expect(paid).toHaveLength(3);
    expect(paid.every((p) => p.amount === 49900)).toBe(true);
  });

  it('stays created, charging nothing, until the customer authorises it', async () => {
    const planId = await plan('daily', 3000);
    const sub = await subscribe(planId, 3, [], false);
    await advance('5d');
    expect(await get(sub.id)).toMatchObject({ status: 'created', paid_count: 0 });
    expect(await charges(sub.id)).toHaveLength(0);
    const declined = await run(['-o', 'json', 'sandbox', 'pay', sub.id, '--fail'], { env: sb.env });
    expect(JSON.parse(declined.stdout)).toMatchObject({ status: 'created', auth_attempts: 1 });
    const paid = await runJson<Subscription>(sb, ['sandbox', 'pay', sub.id]);
    expect(paid.data).toMatchObject({ status: 'active', paid_count: 1, remaining_count: 2 });
    const again = await run(['sandbox', 'pay', sub.id], { env: sb.env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already authorised');
  });

  it('honours start_at: nothing is charged before it', async () => {
    const planId = await plan('weekly', 10000);
    const clock = await runJson<{ now: number }>(sb, ['sandbox', 'clock']);
    const sub = await subscribe(planId, 2, ['--start-at', String(clock.data!.now + 3 * 86_400)]);
    expect(sub).toMatchObject({ status: 'authenticated', paid_count: 0 });
    await advance('2d');
    expect((await get(sub.id)).paid_count).toBe(0);
    await advance('2d');
    expect(await get(sub.id)).toMatchObject({ status: 'active', paid_count: 1 });
  });

  it('cancel now charges nothing more; cancel at cycle end lets the paid period finish and then charges nothing', async () => {
    const planId = await plan('monthly', 20000);
    const now = await subscribe(planId, 6);
    const atEnd = await subscribe(planId, 6);

    const cancelled = await runJson<Subscription>(sb, ['subscriptions', 'cancel', now.id, '--yes']);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.data).toMatchObject({ status: 'cancelled', paid_count: 1 });

    const scheduled = await runJson<Subscription & { has_scheduled_changes: boolean }>(sb, [
      'subscriptions',
      'cancel',
      atEnd.id,
      '--at-cycle-end',
      '--yes',
    ]);
    expect(scheduled.code, scheduled.stderr).toBe(0);
    expect(scheduled.data).toMatchObject({ status: 'active', has_scheduled_changes: true });

    await advance('100d');
    expect(await get(now.id)).toMatchObject({ status: 'cancelled', paid_count: 1 });
    expect(await get(atEnd.id)).toMatchObject({ status: 'cancelled', paid_count: 1 });
    expect(await charges(now.id)).toHaveLength(1);
    expect(await charges(atEnd.id)).toHaveLength(1);

    const again = await run(['subscriptions', 'cancel', now.id, '--yes'], { env: sb.env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('not cancellable in cancelled status');
  });

  it('a POST with an empty body cancels at once, as clients of the real service send it', async () => {
    const planId = await plan('daily', 5000);
    const sub = await subscribe(planId, 5);
    const auth = 'Basic ' + Buffer.from(`${sb.keyId}:${sb.keySecret}`).toString('base64');
    const res = await fetch(`${sb.baseUrl}/subscriptions/${sub.id}/cancel`, {
      method: 'POST',
      headers: { authorization: auth },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Subscription).status).toBe('cancelled');
  });

  it('refuses an unknown plan with the service error and exit 1', async () => {
    const res = await run(['subscriptions', 'create', '--plan', 'plan_00000000000000', '--total-count', '2'], {
      env: sb.env,
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('The plan plan_00000000000000 does not exist');
  });
});
