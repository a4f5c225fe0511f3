import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { run, runJson, sandboxForFile } from './harness';

type Rec = Record<string, unknown>;
const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * README's support tour, run on nothing but a fresh `payctl sandbox seed`: every id the tour names is
 * one the seeded data gives, found the way an agent would (the payment by the customer's e-mail, the
 * customer by that e-mail, their subscription by `--customer`).
 */
const sb = sandboxForFile();

function tour(): string[] {
  const readme = readFileSync(`${ROOT}README.md`, 'utf8');
  const section = readme.slice(readme.indexOf('## A tour for support'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  return block.split('\n').filter((l) => l.startsWith('payctl '));
}

const json = async <T = Rec>(args: string[]) => {
  const res = await runJson<T>(sb, args);
  expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(0);
  return res.data!;
};

beforeAll(async () => {
  const seeded = await run(['sandbox', 'seed'], { env: sb.env });
  expect(seeded.code, seeded.stderr).toBe(0);
  expect(seeded.stderr).toMatch(/7 subscriptions \(one in each status\)/);
});

describe('README support tour on `payctl sandbox seed` alone', () => {
  it('every command of the tour runs on seeded ids and shows what the tour says', async () => {
    const lines = tour();
    expect(lines.length).toBeGreaterThanOrEqual(7);
    const email = /--email (\S+)/.exec(lines[0]!)![1]!;
    const amount = Number(/--amount (\d+)/.exec(lines.find((l) => /payments refund pay_/.test(l))!)![1]);

    // The ids the tour needs, as the seeded data has them.
    const theirs = await json<Rec[]>(['payments', 'list', '--email', email, '--from', '30d']);
    expect(theirs.length).toBeGreaterThan(1);
    expect(new Set(theirs.map((p) => p.email))).toEqual(new Set([email]));
    // The one the tour refunds: captured, refunded in part already, with room for the tour's refund.
    const payment = theirs.find(
      (p) =>
        p.status === 'captured' &&
        p.refund_status === 'partial' &&
        Number(p.amount) - Number(p.amount_refunded) > amount,
    )!;
    expect(payment, 'a captured payment of theirs, refunded in part, with room for the refund').toBeDefined();
    const customers = await json<Rec[]>(['customers', 'list', '--all']);
    expect(new Set(customers.map((c) => c.email)).size).toBe(customers.length);
    expect(new Set(customers.map((c) => c.contact)).size).toBe(customers.length);
    const customer = customers.find((c) => c.email === email)!;
    const subs = await json<Rec[]>(['subscriptions', 'list', '--customer', String(customer.id), '--all']);
    const active = subs.find((s) => s.status === 'active')!;
    expect(active, 'the customer has an active subscription').toBeDefined();
    const every = await json<Rec[]>(['subscriptions', 'list', '--all']);
    expect(new Set(every.map((s) => s.status))).toEqual(
      new Set(['created', 'authenticated', 'active', 'paused', 'halted', 'cancelled', 'completed']),
    );
    expect(every.every((s) => typeof s.customer_id === 'string' && s.customer_id.startsWith('cust_'))).toBe(true);

    const ids: Record<string, string> = {
      pay: String(payment.id),
      order: String(payment.order_id),
      cust: String(customer.id),
      plan: String(active.plan_id),
      sub: String(active.id),
    };
    const outputs: Record<string, unknown> = {};
    for (const line of lines) {
      const args = line
        .slice('payctl '.length)
        .split(' ')
        .map((w) => w.replace(/^([a-z]+)_[A-Za-z0-9]{14}$/, (whole, kind: string) => ids[kind] ?? whole));
      // The guided refund asks its questions on a terminal: support-guide.test.ts drives it there.
      if (args.join(' ') === 'payments refund') continue;
      const res = await runJson(sb, ['--yes', ...args]);
      expect(res.code, `${line}: ${res.stderr}`).toBe(0);
      outputs[args.slice(0, 2).join(' ')] = res.data;
    }
    expect(outputs['orders get']).toMatchObject({ id: ids.order, status: 'paid' });
    expect(outputs['payments refund']).toMatchObject({ payment_id: ids.pay, amount, status: 'processed' });
    expect((outputs['refunds list'] as Rec[]).map((r) => r.amount)).toEqual([amount, Number(payment.amount_refunded)]);
    expect(outputs['customers get']).toMatchObject({ id: ids.cust, email });
    expect((outputs['subscriptions list'] as Rec[]).map((s) => s.id)).toContain(ids.sub);
    expect(outputs['subscriptions pause']).toMatchObject({ id: ids.sub, status: 'paused', customer_id: ids.cust });
  });
});
