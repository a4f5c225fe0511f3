import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRIGGERS } from '../../src/contract/webhooks/catalogue';
import { fill, smallTmpfs } from './full-disk';
import { addProfile, ndjson, run, sandboxForFile, scratchDir, startPayctl } from './harness';
import type { Started } from './harness';

// One webhook secret per sandbox, as an integrator meets it: the secret `sandbox start` printed, given
// to a handler written as the service's docs say (verify the raw body with the official SDK), accepts
// every delivery `webhooks listen` makes; a handler that verifies JSON.stringify(req.body) fails the
// first default trigger. An empty secret is refused wherever one is read.

const HANDLERS = fileURLToPath(new URL('../fixtures/webhook-handlers/', import.meta.url));
const sb = sandboxForFile();
let env: Record<string, string>;
const children: ChildProcess[] = [];
const listeners: Started[] = [];
const waitFor = (what: () => boolean, timeout = 20_000) => expect.poll(what, { timeout, interval: 100 }).toBe(true);

/** A fixture handler given `secret` in its environment, as a user's .env does: its URL. */
async function handler(file: string, secret: string): Promise<string> {
  const child = spawn(process.execPath, [`${HANDLERS}${file}`], {
    env: { ...process.env, PAYCTL_WEBHOOK_SECRET: secret },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim())));
}

async function listen(url: string, events?: string): Promise<Started> {
  const args = ['-p', 'dev', 'webhooks', 'listen', '--forward-to', url, '-o', 'ndjson'];
  const l = startPayctl(events ? [...args, '--events', events] : args, env);
  listeners.push(l);
  for (let i = 0; i < 100 && !l.err().includes('Ctrl-C stops'); i++) await sleep(100);
  expect(l.err()).toContain('Ctrl-C stops');
  return l;
}

const trigger = async (event: string) => {
  const t = await run(['-p', 'dev', 'webhooks', 'trigger', event, '-o', 'json'], { env });
  expect(t.code, t.stderr).toBe(0);
  return JSON.parse(t.stdout) as { events: Array<{ id: string; event: string }> };
};

beforeAll(async () => {
  env = await addProfile(sb, 'dev');
});
afterAll(async () => {
  for (const l of listeners) if (l.running()) l.signal('SIGINT');
  await Promise.all(listeners.map((l) => l.exit));
  for (const child of children) child.kill();
});

describe('the secret sandbox start printed', () => {
  it('is what --print-secret prints', async () => {
    const printed = await run(['-p', 'dev', 'webhooks', 'listen', '--print-secret'], { env });
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toBe(`PAYCTL_WEBHOOK_SECRET=${sb.webhookSecret}\n`);
  });

  it('a raw-body handler given it accepts every delivery of every default trigger', async () => {
    const l = await listen(await handler('correct.mjs', sb.webhookSecret));
    const made: string[] = [];
    for (const event of Object.keys(TRIGGERS)) made.push(...(await trigger(event)).events.map((e) => e.id));
    const attempts = () => ndjson<{ event_id: string; status: number | null }>(l.out());
    await waitFor(() => made.every((id) => attempts().some((a) => a.event_id === id)), 60_000);
    expect(made.length).toBeGreaterThan(Object.keys(TRIGGERS).length);
    expect(attempts().filter((a) => made.includes(a.event_id) && a.status !== 200)).toEqual([]);
    l.signal('SIGINT');
    await l.exit;
  });

  it('a handler verifying JSON.stringify(req.body) fails the first default trigger', async () => {
    const l = await listen(await handler('reserializing.mjs', sb.webhookSecret), 'payment.captured');
    const [captured] = (await trigger('payment.captured')).events.filter((e) => e.event === 'payment.captured');
    const first = () =>
      ndjson<{ event_id: string; status: number | null; attempt: number }>(l.out()).find(
        (a) => a.event_id === captured!.id,
      );
    await waitFor(() => first() !== undefined);
    expect(first()).toMatchObject({ attempt: 1, status: 400 });
    l.signal('SIGINT');
    await l.exit;
  });
});

describe('an empty or blank secret is refused everywhere', () => {
  it.each([
    ['an empty --secret-file', ''],
    ['a --secret-file of white space', ' \n'],
  ])('verify: %s is exit 2', async (_what, text) => {
    const file = join(sb.home, 'blank-secret');
    writeFileSync(file, text, { mode: 0o600 });
    writeFileSync(join(sb.home, 'body.json'), '{"event":"payment.captured"}');
    // The signature anyone can make with an empty key.
    const forged = 'a6f3e4d3c1d2b8f0b0c1f3b7d0c2e4a1f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4';
    const result = await run(
      ['webhooks', 'verify', '--signature', forged, '--secret-file', file, join(sb.home, 'body.json')],
      { env },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/is empty: a webhook secret cannot be empty or white space/);
  });

  it('PAYCTL_WEBHOOK_SECRET of white space: verify and doctor are exit 2, nothing sent', async () => {
    const blank = { ...env, PAYCTL_WEBHOOK_SECRET: '   ' };
    writeFileSync(join(sb.home, 'body.json'), '{}');
    const verify = await run(['webhooks', 'verify', '--signature', 'x', join(sb.home, 'body.json')], { env: blank });
    expect(verify.code).toBe(2);
    const doctor = await run(['-p', 'dev', 'webhooks', 'doctor', '--url', 'http://127.0.0.1:9/x'], { env: blank });
    expect(doctor.code).toBe(2);
    expect(doctor.stderr).toMatch(/PAYCTL_WEBHOOK_SECRET is empty/);
  });

  it('--sandbox --print-secret on a full disk fails with a reason, never an empty secret', async () => {
    const disk = smallTmpfs();
    if (!disk.dir) return void console.warn(`skipped: ${disk.reason}`);
    fill(disk.dir);
    const home = { PAYCTL_HOME: disk.dir };
    const printed = await run(['--sandbox', 'webhooks', 'listen', '--print-secret'], { env: home });
    expect(printed.code).not.toBe(0);
    expect(printed.stdout).not.toContain('PAYCTL_WEBHOOK_SECRET');
    expect(printed.stderr.trim().split('\n')).toHaveLength(1);
    const started = await run(['sandbox', 'start', '--port', '0', '--db', join(disk.dir, 's.db'), '-o', 'json'], {
      env: { PAYCTL_HOME: scratchDir('payctl-full-home-') },
    });
    expect(started.code).not.toBe(0);
    expect(started.stdout).not.toContain('webhook_secret');
  });
});
