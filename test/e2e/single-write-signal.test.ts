import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { startFaultProxy } from './fault-proxy';
import type { FaultProxy } from './fault-proxy';
import { BIN, run, startSandbox } from './harness';
import type { SandboxProcess } from './harness';

let sb: SandboxProcess | undefined;
let proxy: FaultProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await sb?.stop();
  sb = undefined;
});

/** Starts payctl, sends `sig` once the sandbox has the request (its latency holds the answer back). */
async function interrupted(args: string[], env: Record<string, string | undefined>, sig: NodeJS.Signals) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  // The proxy sees the POST go through; the sandbox's latency keeps the answer back for seconds.
  while (!proxy!.log.some((r) => r.method === 'POST')) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 150));
  child.kill(sig);
  return { code: await exit, stderr };
}

describe.each(['profile', 'env'] as const)(
  'a single write interrupted after it was sent (credentials from %s)',
  (source) => {
    it.each([
      ['refund', 'SIGINT', 130],
      ['capture', 'SIGTERM', 143],
      ['order', 'SIGINT', 130],
    ] as const)(
      '%s: one line saying it may have been applied, with the command to check; exit %s',
      async (what, sig, code) => {
        sb = await startSandbox(['--latency', '2500']);
        const {
          payment_ids: [id],
        } = await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 1 });
        if (what === 'refund') await sb.api('POST', `/payments/${id}/capture`, { amount: 50000, currency: 'INR' });
        proxy = await startFaultProxy(sb.baseUrl);
        let env: Record<string, string | undefined> = { ...sb.env, PAYCTL_BASE_URL: proxy.baseUrl };
        let flags: string[] = [];
        if (source === 'profile') {
          env = { PAYCTL_HOME: sb.home };
          const add = await run(
            ['profile', 'add', 'local', '--key-id', sb.keyId, '--key-secret-stdin', '--base-url', proxy.baseUrl],
            { env, input: sb.keySecret },
          );
          expect(add.code, add.stderr).toBe(0);
          flags = ['-p', 'local'];
        }
        const args = {
          refund: [...flags, 'payments', 'refund', id!, '--amount', '1000', '--yes'],
          capture: [...flags, 'payments', 'capture', id!, '--yes'],
          order: [
            ...flags,
            'orders',
            'create',
            '--amount',
            '5000',
            '--currency',
            'INR',
            '--receipt',
            'rcpt-77',
            '--yes',
          ],
        }[what];
        const res = await interrupted(args, env, sig);
        expect(res.code, res.stderr).toBe(code);
        const lines = res.stderr.trim().split('\n');
        expect(lines, res.stderr).toHaveLength(1);
        expect(lines[0]).toContain('interrupted after the request was sent: it may have been applied');
        // The check names the profile the write used (and, for a window, its zone): run as printed, it looks there.
        const payctl = source === 'profile' ? '`payctl -p local' : '`payctl';
        expect(lines[0]).toContain(
          what === 'order' ? `${payctl} orders list --from ` : `${payctl} payments get ${id} --fields`,
        );
        if (what === 'order') expect(lines[0]).toMatch(/--receipt rcpt-77 --tz \S+`/);
      },
    );
  },
);

it('a refund sent through `payctl api` and interrupted says so too, with the command to check', async () => {
  sb = await startSandbox(['--latency', '2500']);
  const {
    payment_ids: [id],
  } = await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 1 });
  await sb.api('POST', `/payments/${id}/capture`, { amount: 50000, currency: 'INR' });
  proxy = await startFaultProxy(sb.baseUrl);
  const env = { ...sb.env, PAYCTL_BASE_URL: proxy.baseUrl };
  const res = await interrupted(['api', 'POST', `/payments/${id}/refund`, '-F', 'amount=1000', '--yes'], env, 'SIGINT');
  expect(res.code, res.stderr).toBe(130);
  const lines = res.stderr.trim().split('\n');
  expect(lines, res.stderr).toHaveLength(1);
  expect(lines[0]).toContain('interrupted after the request was sent: it may have been applied');
  expect(lines[0]).toContain(`\`payctl payments get ${id} --fields id,amount,amount_refunded,refund_status\``);
});
