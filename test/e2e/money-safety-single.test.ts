import { describe, expect, it } from 'vitest';
import { faultProxyForFile } from './fault-proxy';
import type { Fault } from './fault-proxy';
import { run, sandboxForFile } from './harness';
import type { RunResult } from './harness';

/**
 * Single money commands through a fault-injecting proxy (DESIGN section 6): an answer lost or garbled
 * after the write was applied is never called refused and never resent; a refund is reconciled by
 * reading the payment back. Every verdict is checked against the sandbox's applied-write counters.
 * Each case runs with a stored profile (`-p`) and with environment credentials.
 */
const sb = sandboxForFile();
const proxy = faultProxyForFile(sb);

type Mode = 'profile' | 'env';
function payctl(mode: Mode, args: string[], timeoutMs?: number): Promise<RunResult & { ms: number }> {
  const base = { PAYCTL_HOME: sb.home, PAYCTL_TZ: 'Asia/Kolkata' };
  const env =
    mode === 'env'
      ? { ...base, PAYCTL_BASE_URL: proxy.baseUrl, PAYCTL_KEY_ID: sb.keyId, PAYCTL_KEY_SECRET: sb.keySecret }
      : base;
  const started = Date.now();
  return run([...(mode === 'profile' ? ['-p', 'viaproxy'] : []), '-o', 'json', ...args], { env, timeoutMs }).then(
    (r) => ({ ...r, ms: Date.now() - started }),
  );
}

/** The first POST after this call gets `fault`; everything else passes. `also` runs when it is seen. */
function faultFirstPost(fault: Fault, also?: () => void) {
  let done = false;
  proxy.setRule((r) => {
    if (r.method !== 'POST' || done) return { type: 'pass' };
    done = true;
    also?.();
    return fault;
  });
}
const posts = () => proxy.log.filter((r) => r.method === 'POST').length;

interface Stats {
  applied: { captures: Record<string, number>; refunds: Record<string, { count: number; amount: number }> };
}
const stats = () => sb.admin<Stats>('GET', '/stats');
const refunds = async (id: string) => (await stats()).applied.refunds[id];
const captures = async (id: string) => (await stats()).applied.captures[id];

async function authorized(): Promise<{ id: string; amount: number }> {
  const [id] = (await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 1 })).payment_ids;
  const p = await sb.api<{ amount: number }>('GET', `/payments/${id}`);
  return { id: id!, amount: p.body.amount };
}
async function captured(): Promise<{ id: string; amount: number }> {
  const p = await authorized();
  const res = await sb.api('POST', `/payments/${p.id}/capture`, { amount: p.amount, currency: 'INR' });
  expect(res.status).toBe(200);
  return p;
}

const oneLine = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at /);

describe.each<Mode>(['profile', 'env'])('with %s credentials', (mode) => {
  describe('a refund whose answer is lost after it was applied is confirmed, never refused or resent', () => {
    it.each<[string, Fault]>([
      ['an HTML 408', { type: 'html-after', status: 408 }],
      ['an HTML 499', { type: 'html-after', status: 499 }],
      ['an empty 408', { type: 'empty-after', status: 408 }],
      ['an HTML 502', { type: 'html-after', status: 502 }],
      ['a dropped connection', { type: 'drop-after' }],
      ['a reset mid-body', { type: 'reset-mid-body' }],
    ])('%s', async (_what, fault) => {
      const p = await captured();
      faultFirstPost(fault);
      const sent = posts();
      const res = await payctl(mode, ['--yes', 'payments', 'refund', p.id, '--amount', '1000']);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toMatch(/confirmed by reading it back: refund rfnd_\w+ carries our key/);
      expect(res.stderr).not.toMatch(/refused/);
      expect(JSON.parse(res.stdout)).toMatchObject({ entity: 'refund', payment_id: p.id, amount: 1000 });
      expect(posts() - sent).toBe(1);
      expect(await refunds(p.id)).toEqual({ count: 1, amount: 1000 });
    });
  });

  /** The rerun command payctl printed in an unknown-outcome message, as argv. */
  const rerunOf = (stderr: string) => {
    const cmd = /rerun exactly `payctl ([^`]+)`/.exec(stderr)?.[1];
    expect(cmd, stderr).toBeDefined();
    return cmd!.split(' ');
  };

  it('a refund dropped before it reached the service: unknown (exit 6) with its key; the printed rerun refunds once', async () => {
    const p = await captured();
    faultFirstPost({ type: 'drop-before' });
    const res = await payctl(mode, ['--yes', '--timeout', '2', 'payments', 'refund', p.id, '--amount', '2500']);
    expect(res.code, res.stderr).toBe(6);
    expect(res.stderr).toMatch(/outcome unknown/);
    expect(res.stderr).toMatch(/the request may still land/);
    expect(res.stderr).not.toMatch(/not applied|safe to run/);
    expect(res.stderr).toMatch(/Its key: pcs_[\w-]{20}/);
    expect(await refunds(p.id)).toBeUndefined();
    // Sent again only once the first request can no longer arrive: twice its 2 s deadline after it left.
    await new Promise((r) => setTimeout(r, 4_100));
    const again = await payctl(mode, ['--yes', ...rerunOf(res.stderr)]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ entity: 'refund', amount: 2500 });
    expect(await refunds(p.id)).toEqual({ count: 1, amount: 2500 });
  });

  it('a refund that arrives after the read-back: unknown (exit 6), and the printed rerun finds it: refunded once', async () => {
    const p = await captured();
    let release!: () => void;
    const until = new Promise<void>((r) => (release = r));
    let landed!: (status: number) => void;
    const arrived = new Promise<number>((r) => (landed = r));
    faultFirstPost({ type: 'held', status: 504, until, landed });
    const res = await payctl(mode, ['--yes', 'payments', 'refund', p.id, '--amount', '1500']);
    expect(res.code, res.stderr).toBe(6);
    expect(res.stderr).not.toMatch(/not applied|safe to run/);
    expect(await refunds(p.id)).toBeUndefined(); // not yet: it is still on its way
    release();
    expect(await arrived).toBe(200);
    expect(await refunds(p.id)).toEqual({ count: 1, amount: 1500 });
    const sent = posts();
    const again = await payctl(mode, ['--yes', ...rerunOf(res.stderr)]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/refunded already with key pcs_[\w-]+ .*nothing was sent/);
    expect(posts()).toBe(sent);
    expect(await refunds(p.id)).toEqual({ count: 1, amount: 1500 });
  });

  it("another operator's equal refund while ours is lost is never taken for ours: exit 6 naming our key", async () => {
    const p = await captured();
    // Someone else refunds the same 1000 while our request is lost on its way.
    faultFirstPost({ type: 'drop-before' }, () => void sb.api('POST', `/payments/${p.id}/refund`, { amount: 1000 }));
    const res = await payctl(mode, ['--yes', 'payments', 'refund', p.id, '--amount', '1000']);
    expect(res.code, res.stderr).toBe(6);
    expect(res.stderr).toMatch(/outcome unknown/);
    expect(res.stderr).toMatch(/no refund carries our key yet/);
    expect(res.stderr).toMatch(new RegExp(`payctl (-p viaproxy )?payments get ${p.id}`));
    expect(res.stderr).not.toMatch(/refused/);
    // -o json: the error object on stderr's last line carries the rerun command for a script.
    expect(JSON.parse(res.stderr.trim().split('\n').at(-1)!).error).toMatchObject({
      kind: 'unknown_outcome',
      hints: [expect.stringContaining('--idempotency-key pcs_')],
    });
    expect(await refunds(p.id)).toEqual({ count: 1, amount: 1000 });
  });

  it('--idempotency-key is checked, and 15 notes leave no room for the key: exit 2, nothing sent', async () => {
    const p = await captured();
    proxy.setRule(() => ({ type: 'pass' }));
    const sent = posts();
    const short = await payctl(mode, ['--yes', 'payments', 'refund', p.id, '--idempotency-key', 'short']);
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/--idempotency-key must be 10 to 64 characters/);
    const notes = Array.from({ length: 15 }, (_, i) => ['--note', `k${i}=v`]).flat();
    const full = await payctl(mode, ['--yes', 'payments', 'refund', p.id, ...notes]);
    expect(full.code).toBe(2);
    expect(full.stderr).toMatch(/at most 15 notes and payctl adds one/);
    expect(posts()).toBe(sent);
    expect(await refunds(p.id)).toBeUndefined();
  });

  it('refuses a refund above what remains without sending it (exit 2)', async () => {
    const p = await captured();
    await sb.api('POST', `/payments/${p.id}/refund`, { amount: p.amount - 100 });
    proxy.setRule(() => ({ type: 'pass' }));
    const sent = posts();
    const res = await payctl(mode, ['--yes', 'payments', 'refund', p.id, '--amount', '500']);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toMatch(/only ₹1\.00 \(100 paise\) remains.*nothing was sent/);
    oneLine(res.stderr);
    expect(posts()).toBe(sent);
    expect(await refunds(p.id)).toEqual({ count: 1, amount: p.amount - 100 });
    // Without --amount: all that remains, sent as that explicit amount.
    const rest = await payctl(mode, ['--yes', 'payments', 'refund', p.id]);
    expect(rest.code, rest.stderr).toBe(0);
    expect(JSON.parse(rest.stdout)).toMatchObject({ amount: 100 });
    const none = await payctl(mode, ['--yes', 'payments', 'refund', p.id]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/nothing left to refund/);
  });

  it('a capture answered by a proxy with an HTML 408 after it was applied: read back as captured, exit 0, applied once', async () => {
    const p = await authorized();
    faultFirstPost({ type: 'html-after', status: 408 });
    const res = await payctl(mode, ['--yes', 'payments', 'capture', p.id]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/confirmed by reading the payment back/);
    expect(JSON.parse(res.stdout)).toMatchObject({ id: p.id, status: 'captured' });
    expect(await captures(p.id)).toBe(1);
  });

  it('a capture dropped before it arrived: read back as authorized, sent again, captured once', async () => {
    const p = await authorized();
    faultFirstPost({ type: 'drop-before' });
    const res = await payctl(mode, ['--yes', 'payments', 'capture', p.id]);
    expect(res.code, res.stderr).toBe(0);
    expect(await captures(p.id)).toBe(1);
  });

  it('a 4xx with the service error object is a refusal (exit 1) and nothing was applied', async () => {
    const p = await authorized(); // not captured: the service refuses a refund
    proxy.setRule(() => ({ type: 'pass' }));
    const res = await payctl(mode, ['--yes', 'payments', 'refund', p.id, '--amount', '100']);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toMatch(/Only captured payments can be refunded/);
    expect(await refunds(p.id)).toBeUndefined();
  });

  it('a wallet transfer answered with an HTML 499 after it was applied: exit 6 with the command to check, applied once', async () => {
    const c = await sb.admin<{ id: string }>('POST', '/customers', { contact: '+919876543210' });
    const p = await captured();
    faultFirstPost({ type: 'html-after', status: 499 });
    const res = await payctl(mode, ['--yes', 'wallet', 'transfer', p.id, '--customer', c.id, '--amount', '1500']);
    expect(res.code, res.stderr).toBe(6);
    expect(res.stderr).toMatch(new RegExp(`payctl (-p viaproxy )?wallet statement ${c.id}`));
    expect(res.stderr).toMatch(/HTTP 499/);
    expect(res.stderr).not.toMatch(/refused/);
    oneLine(res.stderr);
    expect((await sb.api<{ balance: number }>('GET', `/customers/${c.id}/balance`)).body.balance).toBe(1500);
  });

  it('a wallet payout answered with an HTML 502 after it was applied: exit 6 with the command to check, paid out once', async () => {
    const c = await sb.admin<{ id: string }>('POST', '/customers', { contact: '+919876543210' });
    const p = await captured();
    await sb.api('POST', `/payments/${p.id}/transfers`, {
      transfers: [{ customer: c.id, amount: 5000, currency: 'INR' }],
    });
    const fa = await sb.api<{ id: string }>('POST', '/fund_accounts', {
      customer_id: c.id,
      account_type: 'bank_account',
      bank_account: { name: 'Asha Rao', ifsc: 'HDFC0001234', account_number: '50100012345678' },
    });
    faultFirstPost({ type: 'html-after', status: 502 });
    const res = await payctl(mode, [
      '--yes',
      'wallet',
      'payout',
      c.id,
      '--fund-account',
      fa.body.id,
      '--amount',
      '2000',
      '--purpose',
      'payout',
    ]);
    expect(res.code, res.stderr).toBe(6);
    expect(res.stderr).toMatch(new RegExp(`payctl (-p viaproxy )?wallet statement ${c.id}`));
    expect(res.stderr).not.toMatch(/refused/);
    expect((await sb.api<{ balance: number }>('GET', `/customers/${c.id}/balance`)).body.balance).toBe(3000);
  });

  it('an order create answered with an empty 408: exit 6 naming the list command to check', async () => {
    faultFirstPost({ type: 'empty-after', status: 408 });
    const receipt = `rcpt-${mode}-${Date.now()}`;
    const res = await payctl(mode, ['orders', 'create', '--amount', '5000', '--currency', 'INR', '--receipt', receipt]);
    expect(res.code, res.stderr).toBe(6);
    expect(res.stderr).toMatch(new RegExp(`payctl (-p viaproxy )?orders list --receipt ${receipt} --from 1h --tz `));
    const found = await sb.api<{ count: number }>('GET', `/orders?receipt=${receipt}`);
    expect(found.body.count).toBe(1);
  });
});
