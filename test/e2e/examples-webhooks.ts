import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { run } from './harness';
import type { SandboxProcess } from './harness';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** The connection an example names (`--sandbox`, `-p NAME`), for what the world does alongside it. */
const connection = (line: string) =>
  line.match(/(?:^|\s)(--sandbox|-p \S+|--profile \S+)(?=\s|$)/)?.[1]?.split(' ') ?? [];

/**
 * Which sandbox a line's webhooks come from, each with its own webhook secret: the home's own
 * database (`--sandbox`), or the examples' sandbox that every profile points at.
 */
const sandboxOf = (line: string): Sandbox => (connection(line)[0] === '--sandbox' ? 'home' : 'profile');
type Sandbox = 'home' | 'profile';
const CONNECTION: Record<Sandbox, string[]> = { home: ['--sandbox'], profile: ['-p', 'sandbox'] };

/**
 * The webhook side of the examples' world: a handler where the examples say `localhost:3000` (the
 * fixture that verifies the raw bytes with the official SDK and counts what it applied), one per
 * sandbox, given the secret `webhooks listen --print-secret` prints there; bodies and signatures to
 * verify, and event and webhook ids in the sandbox.
 */
export function webhookWorld(sb: SandboxProcess, work: string) {
  const home = { PAYCTL_HOME: sb.home };
  const secrets = new Map<Sandbox, Promise<string>>();
  const handlers = new Map<Sandbox, { origin: Promise<string>; child?: ChildProcess }>();
  const children: ChildProcess[] = [];

  /** The webhook secret of a sandbox, as a user reads it; read again after an example rotates it. */
  const secretOf = (which: Sandbox) => {
    let secret = secrets.get(which);
    if (!secret) {
      secret = run([...CONNECTION[which], 'webhooks', 'listen', '--print-secret'], { env: home }).then((printed) => {
        expect(printed.code, printed.stderr).toBe(0);
        return printed.stdout.trim().split('=')[1]!;
      });
      secrets.set(which, secret);
    }
    return secret;
  };

  /** The handler's origin (http://127.0.0.1:PORT) for a sandbox, started once, on a free port, with its secret. */
  const handlerOrigin = (which: Sandbox): Promise<string> => {
    const known = handlers.get(which);
    if (known) return known.origin;
    const entry: { origin: Promise<string>; child?: ChildProcess } = { origin: Promise.resolve('') };
    entry.origin = secretOf(which).then(
      (key) =>
        new Promise<string>((resolve, reject) => {
          const child = spawn(process.execPath, [join(FIXTURES, 'webhook-handlers', 'correct.mjs')], {
            env: { ...process.env, PAYCTL_WEBHOOK_SECRET: key, PORT: '0' },
            stdio: ['ignore', 'pipe', 'inherit'],
          });
          entry.child = child;
          children.push(child);
          child.once('error', reject);
          child.stdout!.once('data', (d: Buffer) =>
            resolve(
              d
                .toString()
                .trim()
                .replace(/\/webhooks$/, ''),
            ),
          );
        }),
    );
    handlers.set(which, entry);
    return entry.origin;
  };

  /** After an example rotates a sandbox's secret, its handler is started again with the new one. */
  function forget(which: Sandbox) {
    secrets.delete(which);
    handlers.get(which)?.child?.kill();
    handlers.delete(which);
  }

  /** A payment.captured made through the example's own connection: the payment's id and the event's. */
  async function trigger(line: string): Promise<{ paymentId: string; eventId: string }> {
    const made = await run([...connection(line), 'webhooks', 'trigger', 'payment.captured', '-o', 'json'], {
      env: home,
    });
    expect(made.code, made.stderr).toBe(0);
    const { payment_id, events } = JSON.parse(made.stdout) as {
      payment_id: string;
      events: Array<{ id: string; event: string }>;
    };
    return { paymentId: payment_id, eventId: events.find((e) => e.event === 'payment.captured')!.id };
  }

  /** Whether the line's handler verified and applied that payment's capture (within `ms`: a guard, not a target). */
  async function applied(line: string, paymentId: string, ms = 90_000): Promise<boolean> {
    const origin = await handlerOrigin(sandboxOf(line));
    for (const until = Date.now() + ms; Date.now() < until; await sleep(200))
      if ((await (await fetch(`${origin}/applied/${paymentId}`)).text()) === '1') return true;
    return false;
  }

  /**
   * An event that reached a handler: a refund's (so the capture counts above stay the example's own),
   * sent to a webhook of the world's own, live long enough for a replay to find it.
   */
  async function event(): Promise<string> {
    const origin = await handlerOrigin('profile');
    await sb.admin('POST', '/webhooks/listen', { url: `${origin}/world`, events: ['refund.*'] });
    const made = await sb.admin<{ events: Array<{ id: string; event: string }> }>('POST', '/webhooks/trigger', {
      event: 'refund.processed',
      set: [],
    });
    return made.events.find((e) => e.event === 'refund.processed')!.id;
  }

  /**
   * A webhook the sandbox disabled: its handler never answered (a port nothing listens on) for 24 hours
   * of sandbox time. Polled meanwhile, as a listener is, so the sandbox keeps sending to it.
   */
  async function webhook(): Promise<string> {
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const { port } = gone.address() as AddressInfo;
    await new Promise((resolve) => gone.close(resolve));
    const hook = await sb.admin<{ id: string }>('POST', '/webhooks/listen', {
      url: `http://127.0.0.1:${port}/gone`,
      events: ['refund.*'],
    });
    await sb.admin('POST', '/webhooks/trigger', { event: 'refund.processed', set: [] });
    const poll = () =>
      sb.admin<{ webhook: { disabled_at: number | null }; attempts: unknown[] }>('POST', '/webhooks/poll', {
        id: hook.id,
      });
    let advanced = false;
    for (const until = Date.now() + 20_000; Date.now() < until; await sleep(200)) {
      const { webhook, attempts } = await poll();
      if (webhook.disabled_at !== null) return hook.id;
      // Its first attempt failed: a day passes, and the next attempt gives up.
      if (attempts.length && !advanced) {
        advanced = true;
        await sb.admin('POST', '/clock/advance', { seconds: 25 * 3600 });
      }
    }
    throw new Error(`the sandbox did not disable webhook ${hook.id} after a day of failed deliveries`);
  }

  /** Files the verify examples read: a body in the service's bytes, and the secret in a file of its own. */
  async function writeFiles(line: string) {
    if (/\bbody\.json\b/.test(line))
      copyFileSync(join(FIXTURES, 'webhook-verify', 'body.json'), join(work, 'body.json'));
    if (/\.webhook-secret\b/.test(line))
      writeFileSync(join(work, '.webhook-secret'), await secretOf(sandboxOf(line)), { mode: 0o600 });
  }

  /**
   * Where an example names `localhost:3000`, the handler; a placeholder signature (`5b3c…e9`) is the
   * real one of body.json with the home's secret, as the handler received it.
   */
  async function substitute(line: string): Promise<string> {
    let out = line;
    if (/\bwebhooks rotate-secret\b/.test(line)) forget(sandboxOf(line));
    if (/(localhost|127\.0\.0\.1):3000\b/.test(out)) {
      const origin = new URL(await handlerOrigin(sandboxOf(line))).host;
      out = out.replace(/(localhost|127\.0\.0\.1):3000\b/g, origin);
    }
    const signature = /--signature\s+([0-9a-f]+…[0-9a-f]+)/.exec(out)?.[1];
    if (signature) {
      const body = readFileSync(join(work, 'body.json'));
      out = out.replace(
        signature,
        createHmac('sha256', await secretOf(sandboxOf(line)))
          .update(body)
          .digest('hex'),
      );
    }
    return out;
  }

  const stop = () => children.forEach((child) => child.kill());

  return { trigger, applied, event, webhook, writeFiles, substitute, stop };
}
