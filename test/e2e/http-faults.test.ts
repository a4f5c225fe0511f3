import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { faultProxyForFile } from './fault-proxy';
import type { Fault } from './fault-proxy';
import { addProfile, capturedPayment, run, sandboxForFile } from './harness';
import type { RunResult } from './harness';

/**
 * The HTTP layer under everyday faults, through a proxy on loopback: one deadline per attempt (a
 * dripped or hung answer), Retry-After waits shown on stderr, a host that does not resolve, escape
 * sequences in what the service says, and a damaged config file. With a stored profile and with
 * environment credentials.
 */
const sb = sandboxForFile();
const proxy = faultProxyForFile(sb);
beforeAll(async () => {
  await addProfile(sb, 'typo', { baseUrl: 'https://api.payctl-e2e.invalid/v1' });
});

type Mode = 'profile' | 'env';
function payctl(mode: Mode, args: string[], extra: Record<string, string> = {}): Promise<RunResult & { ms: number }> {
  const base = { PAYCTL_HOME: sb.home, PAYCTL_TZ: 'Asia/Kolkata', ...extra };
  const env =
    mode === 'env'
      ? { ...base, PAYCTL_BASE_URL: proxy.baseUrl, PAYCTL_KEY_ID: sb.keyId, PAYCTL_KEY_SECRET: sb.keySecret }
      : base;
  const started = Date.now();
  return run([...(mode === 'profile' ? ['-p', 'viaproxy'] : []), '-o', 'json', ...args], {
    env,
    timeoutMs: 60_000,
  }).then((r) => ({ ...r, ms: Date.now() - started }));
}

/** `fault` for the first `times` requests with this method; everything else passes. */
function faultFirst(method: string, fault: Fault, times = 1) {
  let n = 0;
  proxy.setRule((r) => (r.method === method && n++ < times ? fault : { type: 'pass' }));
}

const refunds = async (id: string) =>
  (await sb.admin<{ applied: { refunds: Record<string, { count: number; amount: number }> } }>('GET', '/stats')).applied
    .refunds[id];

const ESCAPES = /[\x1b\x07\x9b\u202e]/;

describe.each<Mode>(['profile', 'env'])('with %s credentials', (mode) => {
  describe('--timeout is one deadline per attempt, connect to last byte', () => {
    it('a refund whose answer is dripped a byte at a time ends after --timeout 1, reconciled as applied once', async () => {
      const id = await capturedPayment(sb);
      faultFirst('POST', { type: 'drip-after', everyMs: 200 });
      const res = await payctl(mode, ['--timeout', '1', '--yes', 'payments', 'refund', id, '--amount', '1000']);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toMatch(/timed out.*confirmed by reading it back: refund rfnd_\w+ carries our key/);
      expect(res.ms).toBeLessThan(10_000);
      expect(await refunds(id)).toEqual({ count: 1, amount: 1000 });
    });

    it('a refund the proxy never forwards nor answers ends after --timeout 1: unknown (it may still land), exit 6', async () => {
      const id = await capturedPayment(sb);
      faultFirst('POST', { type: 'hang-before' });
      const res = await payctl(mode, ['--timeout', '1', '--yes', 'payments', 'refund', id, '--amount', '1000']);
      expect(res.code, res.stderr).toBe(6);
      expect(res.stderr).toMatch(/may still land.*Its key: pcs_/);
      expect(res.ms).toBeLessThan(10_000);
      expect(await refunds(id)).toBeUndefined();
    });

    it('a read dripped on every attempt ends with exit 5, each attempt bounded', async () => {
      const id = await capturedPayment(sb);
      faultFirst('GET', { type: 'drip-after', everyMs: 200 }, 99);
      const res = await payctl(mode, ['--timeout', '1', 'payments', 'get', id], { PAYCTL_MAX_RETRIES: '1' });
      expect(res.code, res.stderr).toBe(5);
      expect(res.ms).toBeLessThan(10_000);
    });
  });

  it('a 429 with Retry-After: 2 waits, says so on one line, and refunds once', async () => {
    const id = await capturedPayment(sb);
    faultFirst('POST', { type: 'status-before', status: 429, retryAfter: '2', body: '{}' });
    const res = await payctl(mode, ['--yes', 'payments', 'refund', id, '--amount', '1000']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('payctl: rate limited; retrying in 2s (attempt 2 of 7)');
    expect(res.ms).toBeGreaterThanOrEqual(2000);
    expect(await refunds(id)).toEqual({ count: 1, amount: 1000 });
  });

  it.each(['-1', 'soon', '-30'])(
    'a 429 with Retry-After: %s is read as absent: a short backoff, no wait line',
    async (header) => {
      const id = await capturedPayment(sb);
      faultFirst('POST', { type: 'status-before', status: 429, retryAfter: header, body: '{}' });
      const res = await payctl(mode, ['--yes', 'payments', 'refund', id, '--amount', '1000']);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).not.toMatch(/retrying/);
      expect(await refunds(id)).toEqual({ count: 1, amount: 1000 });
    },
  );

  it('a host that does not resolve fails at once: exit 5, a hint, no retries', async () => {
    const res =
      mode === 'profile'
        ? await run(['-p', 'typo', 'payments', 'get', 'pay_AAAAAAAAAAAAAA'], { env: { PAYCTL_HOME: sb.home } })
        : await run(['--base-url', 'https://api.payctl-e2e.invalid/v1', 'payments', 'get', 'pay_AAAAAAAAAAAAAA'], {
            env: { ...sb.env },
          });
    expect(res.code, res.stderr).toBe(5);
    expect(res.stderr).toMatch(/^payctl: cannot resolve the host name api\.payctl-e2e\.invalid/);
    expect(res.stderr).toMatch(/check --base-url.*profile/);
    expect(res.stderr).not.toMatch(/retrying/);
  });

  it('escape sequences in the service error description never reach the terminal, nor the JSON error', async () => {
    const id = await capturedPayment(sb);
    const description = 'The amount \x1b]0;pwned\x07\x1b[2J\u202eis invalid\x9b31m';
    faultFirst('POST', {
      type: 'status-before',
      status: 400,
      body: JSON.stringify({
        error: { code: 'BAD_REQUEST_ERROR', description, reason: 'x\x1b[31my', field: 'amount' },
      }),
    });
    const res = await payctl(mode, ['--yes', 'payments', 'refund', id, '--amount', '1000']);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toMatch(/^payctl: cannot refund payment pay_\w+: the service says: The amount is invalid/);
    expect(res.stderr).not.toMatch(ESCAPES);
    expect(JSON.parse(res.stderr.trim().split('\n').at(-1)!).error.error.description).toBe('The amount is invalid');
  });

  it('escape sequences in a proxy page that answered a write never reach the terminal', async () => {
    const id = await capturedPayment(sb);
    faultFirst('POST', { type: 'status-before', status: 499, body: '<html>\x1b]0;pwned\x07\x1b[2J gone</html>' });
    const res = await payctl(mode, ['--yes', 'payments', 'refund', id, '--amount', '1000']);
    expect(res.code, res.stderr).toBe(6);
    expect(res.stderr).toMatch(/HTTP 499/);
    expect(res.stderr).not.toMatch(ESCAPES);
  });
});

describe('the config file', () => {
  it('stays 0600 through add, use and remove', async () => {
    const home = mkdtempSync(join(tmpdir(), 'payctl-cfg-'));
    const env = { PAYCTL_HOME: home };
    const mode = () => statSync(join(home, 'config.json')).mode & 0o777;
    try {
      for (const name of ['a', 'b']) {
        expect(
          (
            await run(
              [
                'profile',
                'add',
                name,
                '--key-id',
                'rzp_test_cfg',
                '--base-url',
                'https://api.example.com/v1',
                '--key-secret-stdin',
              ],
              { env, input: 'cfg-secret-0123456789' },
            )
          ).code,
        ).toBe(0);
        expect(mode()).toBe(0o600);
      }
      expect((await run(['profile', 'use', 'b'], { env })).code).toBe(0);
      expect(mode()).toBe(0o600);
      expect((await run(['profile', 'remove', 'a'], { env })).code).toBe(0);
      expect(mode()).toBe(0o600);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it.each([
    ['cut short', (t: string) => t.slice(0, 48)],
    ['profiles that are not an object', () => '{"profiles":5,"default":"a"}'],
  ])('damaged (%s): one line naming the file and what to do, exit 2, nothing sent', async (_what, spoil) => {
    const home = mkdtempSync(join(tmpdir(), 'payctl-cfg-'));
    const env = { PAYCTL_HOME: home };
    try {
      await run(
        ['profile', 'add', 'a', '--key-id', 'rzp_test_cfg', '--base-url', proxy.baseUrl, '--key-secret-stdin'],
        { env, input: 'cfg-secret-0123456789' },
      );
      const file = join(home, 'config.json');
      writeFileSync(file, spoil(readFileSync(file, 'utf8')));
      const seen = proxy.log.length;
      for (const args of [
        ['payments', 'get', 'pay_AAAAAAAAAAAAAA'],
        ['profile', 'list'],
        ['profile', 'use', 'a'],
      ]) {
        const res = await run(args, { env });
        expect(res.code, res.stderr).toBe(2);
        expect(res.stderr.trim().split('\n')).toHaveLength(1);
        expect(res.stderr).toContain(`the config file ${file} is damaged`);
        expect(res.stderr).toMatch(/fix it, or move it aside/);
        expect(res.stderr).not.toMatch(/position \d+/);
      }
      expect(proxy.log.length).toBe(seen);
      expect((await run(['__profiles'], { env })).code).toBe(0);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
