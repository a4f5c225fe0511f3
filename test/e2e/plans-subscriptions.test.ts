import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { addProfile, authoriseSubscription, createSubscription, run, runJson, sandboxForFile } from './harness';
import { KEY, onTerminal } from './pty';

interface Plan {
  id: string;
  period: string;
  item: { name: string; amount: number; currency: string };
}
interface Subscription {
  id: string;
  plan_id: string;
  status: string;
  paid_count: number;
  remaining_count: number;
  charge_at: number | null;
  current_end: number | null;
}

const sb = sandboxForFile();
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/real/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

async function plan(name: string, period = 'monthly', amount = 49900): Promise<Plan> {
  const args = ['--period', period, '--interval', '1', '--name', name, '--amount', String(amount), '--currency', 'INR'];
  const res = await runJson<Plan>(sb, ['plans', 'create', ...args]);
  expect(res.code, res.stderr).toBe(0);
  return res.data!;
}

/** A subscription authorised at the sandbox's checkout: active, its first cycle paid. */
async function active(planId: string, total = 6): Promise<Subscription> {
  const created = await createSubscription<Subscription>(sb, planId, total);
  const paid = await authoriseSubscription<Subscription>(sb, created.id);
  expect(paid).toMatchObject({ status: 'active', paid_count: 1 });
  return paid;
}

const get = async (id: string) => (await runJson<Subscription>(sb, ['subscriptions', 'get', id])).data!;
const advance = async (d: string) =>
  expect((await run(['sandbox', 'clock', 'advance', d], { env: sb.env })).code).toBe(0);
const write = (verb: 'pause' | 'resume', id: string) => runJson<Subscription>(sb, ['subscriptions', verb, id, '--yes']);

describe('plans list and get', () => {
  it('in json, csv and an 80-column table', async () => {
    const gold = await plan('Gold');
    const silver = await plan('Silver', 'weekly', 9900);
    const listed = await runJson<Plan[]>(sb, ['plans', 'list', '--all']);
    expect(listed.data!.slice(0, 2).map((p) => p.id)).toEqual([silver.id, gold.id]);
    expect((await runJson<Plan>(sb, ['plans', 'get', gold.id])).data).toEqual(gold);
    expect(Object.keys(gold).sort()).toEqual(Object.keys(fixture('plan.json')).sort());

    const csv = await run(['plans', 'list', '--all', '-o', 'csv'], { env: sb.env });
    const lines = csv.stdout.trim().split('\n');
    expect(lines[0]).toBe(
      'id,period,interval,item.name,item.amount,item.amount_display,currency,created_at,created_at_iso,created_at_local',
    );
    expect(lines[1]).toMatch(new RegExp(`^${silver.id},weekly,1,Silver,9900,₹99\\.00,INR,`));

    const table = await run(['plans', 'get', gold.id, '-o', 'table'], { env: { ...sb.env, COLUMNS: '80' } });
    expect(table.stdout).toMatch(/item\.amount\s+₹499\.00 \(49900 paise\)/);
    const missing = await run(['plans', 'get', 'plan_000000000000Zz'], { env: sb.env });
    expect(missing.code).toBe(1);
  });
});

describe('subscriptions list, pause and resume', () => {
  it("list --plan shows only that plan's subscriptions, in every format", async () => {
    const a = await plan('Plan A');
    const b = await plan('Plan B');
    const subA = await active(a.id);
    await active(b.id);
    const listed = await runJson<Subscription[]>(sb, ['subscriptions', 'list', '--plan', a.id]);
    expect(listed.data!.map((s) => s.id)).toEqual([subA.id]);
    const ndjson = await run(['subscriptions', 'list', '--plan', b.id, '-o', 'ndjson'], { env: sb.env });
    expect(
      ndjson.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).plan_id),
    ).toEqual([b.id]);
    const csv = await run(['subscriptions', 'list', '--plan', a.id, '-o', 'csv'], { env: sb.env });
    expect(csv.stdout.split('\n')[1]).toMatch(new RegExp(`^${subA.id},${a.id},active,1,5,6,`));
    const table = await run(['subscriptions', 'list', '--plan', a.id, '-o', 'table'], {
      env: { ...sb.env, COLUMNS: '80' },
    });
    expect(table.stdout).toMatch(new RegExp(`${subA.id}\\s+${a.id}\\s+active`));
    const bad = await run(['subscriptions', 'list', '--plan', 'sub_x'], { env: sb.env });
    expect(bad.code).toBe(2);
  });

  it('a paused subscription is not charged while the clock passes; resumed, it is charged from its next cycle date', async () => {
    const p = await plan('Monthly pause');
    const sub = await active(p.id);
    const paused = await write('pause', sub.id);
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.data).toMatchObject({ status: 'paused', charge_at: null, paid_count: 1 });
    expect(Object.keys(paused.data!).sort()).toEqual(Object.keys(fixture('subscription_paused.json')).sort());

    await advance('75d');
    expect(await get(sub.id)).toMatchObject({ status: 'paused', paid_count: 1, remaining_count: 5 });

    const resumed = await write('resume', sub.id);
    expect(resumed.code, resumed.stderr).toBe(0);
    const clock = await runJson<{ now: number }>(sb, ['sandbox', 'clock']);
    expect(resumed.data).toMatchObject({ status: 'active', paid_count: 1 });
    // The next charge is in the future, on a cycle boundary of the original schedule: nothing missed is charged.
    expect(resumed.data!.charge_at!).toBeGreaterThanOrEqual(clock.data!.now);
    expect(resumed.data!.charge_at! - clock.data!.now).toBeLessThanOrEqual(31 * 86_400);
    expect(await get(sub.id)).toMatchObject({ status: 'active', paid_count: 1 });
    await advance('32d');
    expect(await get(sub.id)).toMatchObject({ status: 'active', paid_count: 2, remaining_count: 4 });
  });

  it('only an active subscription pauses and only a paused one resumes', async () => {
    const p = await plan('Rules');
    const created = await runJson<Subscription>(sb, ['subscriptions', 'create', '--plan', p.id, '--total-count', '3']);
    const notYet = await run(['subscriptions', 'pause', created.data!.id, '--yes'], { env: sb.env });
    expect(notYet.code).toBe(1);
    expect(notYet.stderr).toContain('cannot be paused in created status');

    const sub = await active(p.id);
    const notPaused = await run(['subscriptions', 'resume', sub.id, '--yes'], { env: sb.env });
    expect(notPaused.code).toBe(1);
    expect(notPaused.stderr).toContain('cannot be resumed in active status');
    expect((await write('pause', sub.id)).code).toBe(0);
    const twice = await run(['subscriptions', 'pause', sub.id, '--yes'], { env: sb.env });
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('cannot be paused in paused status');
    const cancelled = await runJson<Subscription>(sb, ['subscriptions', 'cancel', sub.id, '--yes']);
    expect(cancelled.data).toMatchObject({ status: 'cancelled' });
    const gone = await run(['subscriptions', 'resume', sub.id, '--yes'], { env: sb.env });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('cannot be resumed in cancelled status');
  });

  it('pause and resume are confirmed: without a terminal or --yes nothing is sent; --dry-run shows the request', async () => {
    const p = await plan('Confirm');
    const sub = await active(p.id);
    const refused = await run(['subscriptions', 'pause', sub.id], { env: sb.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('pass --yes');
    expect(await get(sub.id)).toMatchObject({ status: 'active' });
    const dry = await run(['subscriptions', 'pause', sub.id, '--dry-run', '-o', 'json'], { env: sb.env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject([
      { method: 'POST', url: expect.stringContaining(`/subscriptions/${sub.id}/pause`), body: { pause_at: 'now' } },
    ]);
    expect(await get(sub.id)).toMatchObject({ status: 'active' });
  });

  it('on a terminal the question names the profile, the subscription and its plan; "No" sends nothing', async () => {
    const p = await plan('Terminal');
    const sub = await active(p.id);
    const env = { ...(await addProfile(sb, 'billing')), PAYCTL_PROFILE: 'billing', NO_COLOR: '1' };
    const no = onTerminal(['subscriptions', 'pause', sub.id], env);
    const asked = (await no.waitFor(/\(y\s*\/\s*N\)/)).replace(/\n/g, '');
    expect(asked).toContain(`[profile billing] Pause subscription ${sub.id} (plan ${p.id}) now?`);
    await no.type('n', KEY.enter);
    expect(await no.exited).not.toBe(0);
    expect(await get(sub.id)).toMatchObject({ status: 'active' });
    const yes = onTerminal(['subscriptions', 'pause', sub.id, '-o', 'json'], env);
    await yes.waitFor(/\(y\s*\/\s*N\)/);
    await yes.type('y', KEY.enter);
    expect(await yes.exited).toBe(0);
    expect(await get(sub.id)).toMatchObject({ status: 'paused' });
  });
});
