import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy } from './fault-proxy';
import type { FaultProxy } from './fault-proxy';
import { run, sandboxForFile, seedCaptured } from './harness';

/**
 * A hostile service answer (or a proxy rewriting it) before money arithmetic: a negative
 * amount_refunded once made "refund all that remains" send 3x the payment. Figures are checked first
 * (contract/rules.ts): nothing is sent, exit 1 naming the field, and a bulk row is `failed`.
 */
const sb = sandboxForFile();
let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await startFaultProxy(sb.baseUrl);
});
afterAll(async () => {
  await proxy?.close();
});

const env = () => ({ ...sb.env, PAYCTL_BASE_URL: proxy.baseUrl });
const posts = () => proxy.log.filter((r) => r.method === 'POST').length;
type Refunds = Record<string, { count: number; amount: number }>;
const refunds = async () => (await sb.admin<{ applied: { refunds: Refunds } }>('GET', '/stats')).applied.refunds;

/** Every read of a payment comes back with `edit` applied. */
function hostile(edit: (p: Record<string, unknown>) => Record<string, unknown>) {
  proxy.setRule((r) =>
    r.method === 'GET' && /\/payments\/pay_\w+$/.test(r.path.split('?')[0]!)
      ? { type: 'rewrite-after', edit: (body) => edit(body) }
      : { type: 'pass' },
  );
}

describe('service figures are checked before money arithmetic', () => {
  it.each<[string, (p: Record<string, unknown>) => Record<string, unknown>, RegExp]>([
    ['a negative amount_refunded', (p) => ({ ...p, amount_refunded: -100000 }), /amount_refunded is -100000/],
    ['a fractional amount', (p) => ({ ...p, amount: 50000.5 }), /amount is 50000\.5/],
    ['amount_refunded above the amount', (p) => ({ ...p, amount_refunded: 60000 }), /more than its amount/],
    ['the id of another payment', (p) => ({ ...p, id: 'pay_SomeoneElse123' }), /answered for id "pay_SomeoneElse123"/],
  ])('%s: a single refund is exit 1 naming it, nothing sent', async (_what, edit, named) => {
    const [id] = await seedCaptured(sb, 1);
    hostile(edit);
    const sent = posts();
    const res = await run(['--yes', 'payments', 'refund', id!], { env: env() });
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toMatch(named);
    expect(res.stderr).toMatch(/nothing was sent/);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(posts()).toBe(sent);
    expect((await refunds())[id!]).toBeUndefined();
    const back = await sb.api<{ amount_refunded: number }>('GET', `/payments/${id}`);
    expect(back.body.amount_refunded).toBe(0);
  });

  it('a bulk refund of all that remains: each row unknown naming the field and its check (never failed: the service refused nothing), exit 7, nothing sent', async () => {
    const ids = await seedCaptured(sb, 3);
    hostile((p) => ({ ...p, amount_refunded: -100000 }));
    const sent = posts();
    const res = await run(['payments', 'refund', ...ids, '--yes', '-o', 'ndjson'], { env: env(), timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(7);
    const rows = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { result: string; reason: string });
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      expect(r.result).toBe('unknown');
      expect(r.reason).toMatch(/amount_refunded is -100000/);
      expect(r.reason).toMatch(/check with `payctl payments get pay_/);
    }
    expect(posts()).toBe(sent);
    for (const id of ids) expect((await refunds())[id]).toBeUndefined();
  });

  it('a single capture of the authorized amount read as a fraction: exit 1 naming it, nothing sent', async () => {
    const { payment_ids: ids } = await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 1 });
    hostile((p) => ({ ...p, amount: 123.45 }));
    const sent = posts();
    const res = await run(['--yes', 'payments', 'capture', ids[0]!], { env: env() });
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toMatch(/amount is 123\.45.*nothing was sent/);
    expect(posts()).toBe(sent);
    expect((await sb.api<{ status: string }>('GET', `/payments/${ids[0]}`)).body.status).toBe('authorized');
  });

  it('a bulk capture of the authorized amount read as a fraction: failed, nothing sent', async () => {
    const { payment_ids: ids } = await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 2 });
    hostile((p) => ({ ...p, amount: 123.45 }));
    const sent = posts();
    const res = await run(['payments', 'capture', ...ids, '--yes', '-o', 'ndjson'], { env: env(), timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(7);
    expect(res.stdout).toMatch(/amount is 123\.45/);
    expect(posts()).toBe(sent);
    for (const id of ids)
      expect((await sb.api<{ status: string }>('GET', `/payments/${id}`)).body.status).toBe('authorized');
  });
});
