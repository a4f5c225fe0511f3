import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFaultProxy } from './fault-proxy';
import type { FaultProxy } from './fault-proxy';
import { capturedPayment, profileAddArgs, registerSecret, run, startSandbox } from './harness';
import type { RunOptions, SandboxProcess } from './harness';
import { HAS_OPENSSL, makeCerts, startConnectProxy, startTlsFront } from './tls-proxy';
import { needs } from '../tools';
import type { Closer, ConnectProxy, TestCerts } from './tls-proxy';

// payctl -> CONNECT proxy (the only one who knows payments.test) -> TLS front (a certificate from a CA the
// test makes) -> fault proxy -> sandbox: a company network, all on loopback.

let sb: SandboxProcess;
let faults: FaultProxy;
let certs: TestCerts;
let front: Closer;
let proxy: ConnectProxy;
const extra: Closer[] = [];
const dir = mkdtempSync(join(tmpdir(), 'payctl-tls-'));
const SERVICE = 'https://payments.test/v1';
const PROXY_PASSWORD = 'pr0xy-Secret-77xq';

const noProxyEnv = {
  HTTPS_PROXY: undefined,
  https_proxy: undefined,
  HTTP_PROXY: undefined,
  http_proxy: undefined,
  NO_PROXY: undefined,
  no_proxy: undefined,
  PAYCTL_CA_FILE: undefined,
};

beforeAll(async () => {
  if (!HAS_OPENSSL) return;
  sb = await startSandbox();
  faults = await startFaultProxy(sb.baseUrl);
  certs = makeCerts(dir, ['payments.test', 'localhost']);
  front = await startTlsFront(certs, Number(new URL(faults.baseUrl).port));
  proxy = await startConnectProxy({
    hosts: { 'payments.test:443': front.port, [`localhost:${front.port}`]: front.port },
  });
  registerSecret(PROXY_PASSWORD);
  for (const [name, ca] of [
    ['corp', certs.caFile],
    ['wrongca', certs.otherCaFile],
    ['noca', undefined],
  ] as const) {
    const caArgs = ca ? ['--ca-file', ca] : [];
    const add = await run(
      ['profile', 'add', name, '--key-id', sb.keyId, '--base-url', SERVICE, '--key-secret-stdin', ...caArgs],
      { env: { PAYCTL_HOME: sb.home }, input: sb.keySecret },
    );
    expect(add.code, add.stderr).toBe(0);
  }
}, 60_000);
afterAll(async () => {
  for (const c of [proxy, front, ...extra]) await c?.close();
  await faults?.close();
  await sb?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** payctl with profile NAME, through `proxyUrl` (the test's proxy unless said otherwise). */
function payctl(profile: string, args: string[], env: RunOptions['env'] = {}) {
  return run(['-p', profile, '-o', 'json', ...args], {
    env: { ...noProxyEnv, PAYCTL_HOME: sb.home, PAYCTL_TZ: 'Asia/Kolkata', HTTPS_PROXY: proxy.url, ...env },
    timeoutMs: 60_000,
  });
}

interface Stats {
  applied: { captures: Record<string, number>; refunds: Record<string, { count: number; amount: number }> };
}
const refunds = async (id: string) => (await sb.admin<Stats>('GET', '/stats')).applied.refunds[id];
async function authorized(n: number): Promise<string[]> {
  return (await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: n })).payment_ids;
}
/** One line for the person (with -o json the error object follows as JSON on its own line). */
const oneLine = (stderr: string) => {
  const lines = stderr.trim().split('\n');
  expect(
    lines.filter((l) => !l.startsWith('{')),
    stderr,
  ).toHaveLength(1);
};
const tunnels = () => proxy.log.filter((l) => l.target === 'payments.test:443' && l.status === 200).length;

describe('behind a company network (needs the openssl CLI)', () => {
  // Skipped and listed at the end of the run on a machine without openssl, like every tool a test needs.
  beforeEach(() => needs('openssl'));

  describe('through a CONNECT proxy to a TLS service with a company CA', () => {
    it('a list, a refund and a bulk capture go through it, trusted through --ca-file; --debug names the proxy', async () => {
      const before = tunnels();
      await sb.admin('POST', '/seed', { orders: 3 });
      const list = await payctl('corp', ['--debug', 'orders', 'list']);
      expect(list.code, list.stderr).toBe(0);
      expect(JSON.parse(list.stdout).length).toBeGreaterThanOrEqual(3);
      expect(list.stderr).toContain(`[debug] https://payments.test through the proxy ${proxy.url} (HTTPS_PROXY)`);
      expect(tunnels()).toBeGreaterThan(before);

      const pay = await capturedPayment(sb);
      const refund = await payctl('corp', ['--yes', 'payments', 'refund', pay, '--amount', '1000']);
      expect(refund.code, refund.stderr).toBe(0);
      expect(JSON.parse(refund.stdout)).toMatchObject({ entity: 'refund', amount: 1000 });
      expect(await refunds(pay)).toEqual({ count: 1, amount: 1000 });

      const ids = await authorized(3);
      const bulk = await run(
        ['-p', 'corp', 'payments', 'capture', '--input', '-', '--yes', '--journal', join(dir, 'cap.journal')],
        {
          env: { ...noProxyEnv, PAYCTL_HOME: sb.home, HTTPS_PROXY: proxy.url },
          input: ids.join('\n'),
          timeoutMs: 60_000,
        },
      );
      expect(bulk.code, bulk.stderr).toBe(0);
      for (const id of ids)
        expect((await sb.api<{ status: string }>('GET', `/payments/${id}`)).body.status).toBe('captured');
    });

    it('NO_PROXY bypasses it: the proxy sees no connection (and without it, the same host goes through)', async () => {
      const local = ['--base-url', `https://localhost:${front.port}/v1`, 'orders', 'list', '--count', '1'];
      const seen = proxy.connections;
      const through = await payctl('corp', local);
      expect(through.code, through.stderr).toBe(0);
      expect(proxy.connections).toBeGreaterThan(seen);
      expect(proxy.log.at(-1)?.target).toBe(`localhost:${front.port}`);

      for (const noProxy of [{ NO_PROXY: 'localhost' }, { no_proxy: '.example.com, localhost' }]) {
        const before = proxy.connections;
        const direct = await payctl('corp', ['--debug', ...local], noProxy);
        expect(direct.code, direct.stderr).toBe(0);
        expect(direct.stderr).not.toMatch(/through the proxy/);
        expect(direct.stderr).toContain(`[debug] https://localhost:${front.port} directly, not through HTTPS_PROXY: `);
        expect(proxy.connections).toBe(before);
      }
    });

    it('an https:// proxy whose certificate the company CA signs works the same', async () => {
      const secure = await startConnectProxy({ hosts: { 'payments.test:443': front.port }, tls: certs });
      extra.push(secure);
      const res = await payctl('corp', ['--debug', 'orders', 'list', '--count', '1'], { HTTPS_PROXY: secure.url });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toContain(`through the proxy ${secure.url} (HTTPS_PROXY)`);
      expect(secure.log).toEqual([{ target: 'payments.test:443', status: 200 }]);
      // Without the company CA, the proxy's own certificate is the one named.
      const untrusted = await payctl('noca', ['orders', 'list', '--count', '1'], { HTTPS_PROXY: secure.url });
      expect(untrusted.code).toBe(5);
      oneLine(untrusted.stderr);
      expect(untrusted.stderr).toContain(`the TLS certificate of the proxy ${secure.url} is not trusted`);
    });

    it('the company CA also comes from PAYCTL_CA_FILE; without it the untrusted certificate is one exit-5 line with the way out', async () => {
      const viaEnv = await payctl('noca', ['orders', 'list', '--count', '1'], { PAYCTL_CA_FILE: certs.caFile });
      expect(viaEnv.code, viaEnv.stderr).toBe(0);
      const untrusted = await payctl('noca', ['orders', 'list', '--count', '1']);
      expect(untrusted.code).toBe(5);
      oneLine(untrusted.stderr);
      expect(untrusted.stderr).toMatch(/TLS certificate of payments\.test(:443)? is not trusted/);
      expect(untrusted.stderr).toMatch(/--ca-file or PAYCTL_CA_FILE/);
    });

    it('a wrong CA is one exit-5 line naming the CA problem, at once, and a refund behind it is not applied', async () => {
      const res = await payctl('wrongca', ['orders', 'list']);
      expect(res.code).toBe(5);
      oneLine(res.stderr);
      expect(res.stderr).toMatch(
        /TLS certificate of payments\.test is not trusted \([A-Z_]+: [^;]+\); trusted: the system's CAs and /,
      );
      expect(res.stderr).not.toMatch(/use-system-ca/);
      expect(res.stderr).toContain(`${certs.otherCaFile} (--ca-file of profile wrongca)`);
      expect(res.stderr).toMatch(/after 1 attempt/);

      const pay = await capturedPayment(sb);
      const refund = await payctl('wrongca', ['--yes', 'payments', 'refund', pay, '--amount', '500']);
      expect(refund.code, refund.stderr).toBe(5);
      expect(refund.stderr).not.toMatch(/unknown/);
      expect(await refunds(pay)).toBeUndefined();
    });

    it('a CA file that is not one is refused when the profile is added (exit 2)', async () => {
      const args = profileAddArgs(sb, 'badca', SERVICE, '--ca-file', certs.caFile.replace('ca.pem', 'server.key'));
      const add = await run(args, { env: { PAYCTL_HOME: sb.home }, input: sb.keySecret });
      expect(add.code).toBe(2);
      expect(add.stderr).toMatch(/server\.key \(--ca-file\) holds no PEM certificate/);
    });
  });

  describe('a proxy that refuses', () => {
    it('407: exit 5 naming the proxy, a refund not applied; with credentials it works and they are never shown', async () => {
      const guarded = await startConnectProxy({
        hosts: { 'payments.test:443': front.port },
        auth: `ops:${PROXY_PASSWORD}`,
      });
      extra.push(guarded);
      const res = await payctl('corp', ['orders', 'list'], { HTTPS_PROXY: guarded.url });
      expect(res.code).toBe(5);
      oneLine(res.stderr);
      expect(res.stderr).toContain(`the proxy ${guarded.url} refused the tunnel to payments.test with HTTP 407`);
      expect(guarded.log.length).toBe(1);

      const pay = await capturedPayment(sb);
      const refund = await payctl('corp', ['--yes', 'payments', 'refund', pay, '--amount', '700'], {
        HTTPS_PROXY: guarded.url,
      });
      expect(refund.code, refund.stderr).toBe(5);
      expect(refund.stderr).toContain('refused the tunnel');
      // The POST itself refused at the CONNECT (`payctl api` sends it with no read before): known not applied.
      const post = await payctl('corp', ['--yes', 'api', 'POST', `/payments/${pay}/refund`, '-F', 'amount=700'], {
        HTTPS_PROXY: guarded.url,
      });
      expect(post.code, post.stderr).toBe(5);
      expect(post.stderr).toMatch(
        /refused the tunnel .* POST https:\/\/payments\.test\/v1\/payments\/\S+\/refund \(it never reached the service: nothing was applied\)/,
      );
      expect(await refunds(pay)).toBeUndefined();

      const withAuth = `http://ops:${PROXY_PASSWORD}@127.0.0.1:${guarded.port}`;
      const ok = await payctl('corp', ['--debug', '--yes', 'payments', 'refund', pay, '--amount', '700'], {
        https_proxy: withAuth,
      });
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stderr).toContain(`through the proxy http://***@127.0.0.1:${guarded.port} (https_proxy)`);
      expect(await refunds(pay)).toEqual({ count: 1, amount: 700 });
    });

    it('403 and a proxy that is not there: exit 5 naming the proxy, with its credentials redacted', async () => {
      const strict = await startConnectProxy({ hosts: {}, refuse: 403 });
      extra.push(strict);
      const refused = await payctl('corp', ['orders', 'list'], {
        HTTPS_PROXY: `http://ops:${PROXY_PASSWORD}@127.0.0.1:${strict.port}`,
      });
      expect(refused.code).toBe(5);
      oneLine(refused.stderr);
      expect(refused.stderr).toContain(
        `the proxy http://***@127.0.0.1:${strict.port} refused the tunnel to payments.test with HTTP 403`,
      );

      const gone = await startConnectProxy({ hosts: {} });
      await gone.close();
      const absent = await payctl('corp', ['orders', 'list'], { HTTPS_PROXY: gone.url, PAYCTL_MAX_RETRIES: '1' });
      expect(absent.code).toBe(5);
      oneLine(absent.stderr);
      expect(absent.stderr).toContain(`cannot reach the service through the proxy ${gone.url} (ECONNREFUSED)`);
    });
  });

  describe('money safety through the tunnel', () => {
    it('a refund whose answer is lost after the tunnel is up is reconciled, never resent', async () => {
      const pay = await capturedPayment(sb);
      let done = false;
      faults.setRule((r) =>
        r.method === 'POST' && !done ? ((done = true), { type: 'drop-after' }) : { type: 'pass' },
      );
      const posts = () => faults.log.filter((r) => r.method === 'POST').length;
      const sent = posts();
      const res = await payctl('corp', ['--yes', 'payments', 'refund', pay, '--amount', '1200']);
      faults.setRule(() => ({ type: 'pass' }));
      expect([0, 6], res.stderr).toContain(res.code);
      expect(res.stderr).not.toMatch(/refused|not applied/);
      expect(posts() - sent).toBe(1);
      expect(await refunds(pay)).toEqual({ count: 1, amount: 1200 });
    });
  });
});
