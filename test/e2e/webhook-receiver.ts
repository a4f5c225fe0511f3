import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect } from 'vitest';
import { addProfile, run, startPayctl } from './harness';
import type { SandboxProcess, Started } from './harness';

/** One request as the handler got it: path with query string, headers, raw bytes. */
export interface Received {
  url: string;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
  eventId: string;
  signature: string;
  event: string;
}

/**
 * A webhook handler on a fixed loopback port that records every request byte for byte, answers 200
 * (or 500 to the next `failNext` requests), and can go down and come back on the same port.
 */
export async function recordingHandler() {
  const received: Received[] = [];
  let failNext = 0;
  let server: Server | undefined;
  let port = 0;
  const up = () =>
    new Promise<void>((resolve) => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const event = (JSON.parse(raw) as { event: string }).event;
          const eventId = String(req.headers['x-razorpay-event-id'] ?? '');
          const signature = String(req.headers['x-razorpay-signature'] ?? '');
          received.push({ url: req.url ?? '', headers: req.headers, raw, eventId, signature, event });
          if (failNext > 0) {
            failNext--;
            res.writeHead(500).end('try later');
          } else res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
        });
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  const down = () =>
    new Promise<void>((resolve) => {
      server?.close(() => resolve());
      server?.closeAllConnections();
    });
  await up();
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    named: (event: string) => received.filter((r) => r.event === event),
    failNext: (n: number) => void (failNext = n),
    up,
    down,
  };
}

/** What forwardingForFile sets up: the profile's environment, the webhook secret, the handler, the listener. */
export interface Forwarding {
  env: Record<string, string>;
  secret: string;
  handler: Awaited<ReturnType<typeof recordingHandler>>;
  listener: Started;
}

/**
 * `payctl -p PROFILE webhooks listen --forward-to …` for a whole test file, as a user runs it: the
 * sandbox's key stored as `profile`, the secret `--print-secret` shows (the one the sandbox printed), a
 * recording handler, and the listener as a process (tests signal it), ready before the first test and
 * stopped with Ctrl-C after the last. `forward(url)` answers the arguments from the handler's URL on.
 */
export function forwardingForFile(sb: SandboxProcess, profile: string, forward: (url: string) => string[]) {
  const w = {} as Forwarding;
  beforeAll(async () => {
    w.env = await addProfile(sb, profile);
    const printed = await run(['-p', profile, 'webhooks', 'listen', '--print-secret'], { env: w.env });
    expect(printed.code, printed.stderr).toBe(0);
    w.secret = printed.stdout.trim().replace(/^PAYCTL_WEBHOOK_SECRET=/, '');
    expect(w.secret).toBe(sb.webhookSecret);
    w.handler = await recordingHandler();
    w.listener = startPayctl(['-p', profile, 'webhooks', 'listen', '--forward-to', ...forward(w.handler.url)], w.env);
    for (let i = 0; i < 100 && !w.listener.err().includes('Ctrl-C stops'); i++) await sleep(100);
    expect(w.listener.err()).toContain('Ctrl-C stops');
  });
  afterAll(async () => {
    if (w.listener?.running()) w.listener.signal('SIGINT');
    await w.handler?.down();
  });
  return w;
}
