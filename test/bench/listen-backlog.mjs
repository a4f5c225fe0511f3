/* global fetch, performance */
// `webhooks listen` forwarding a backlog against a bare loop POSTing the same bodies:
//   node test/bench/listen-backlog.mjs [--events 2000] [--concurrency 16]
// Events are made while the handler is down (every delivery fails once and waits for its retry), then
// the handler comes back on the same port: the time until it has every event once, against the time a
// loop of `concurrency` workers, a process of its own (bare-post-loop.mjs), takes to POST the same bodies
// with the same headers to the same handler.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { flag } from './args.mjs';

const BIN = fileURLToPath(new URL('../../bin/payctl.js', import.meta.url));

/** A handler that answers 200 at once and keeps what it got: its first copy of each event id. */
function handler(port) {
  const got = new Map();
  let all;
  let want = Infinity;
  const done = new Promise((resolve) => (all = resolve));
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['x-razorpay-event-id']);
      if (!got.has(id)) got.set(id, { body: Buffer.concat(chunks), headers: req.headers, at: performance.now() });
      res.writeHead(200).end('ok');
      if (got.size >= want) all();
    });
  });
  return {
    got,
    until: (n) => ((want = n), got.size >= n ? Promise.resolve() : done),
    up: () => new Promise((resolve) => server.listen(port, '127.0.0.1', resolve)),
    down: () => new Promise((resolve) => (server.close(resolve), server.closeAllConnections())),
  };
}

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const BARE = fileURLToPath(new URL('./bare-post-loop.mjs', import.meta.url));

/**
 * `concurrency` workers POSTing the bodies (with the headers a delivery carries) to `url`, in a process
 * of their own (./bare-post-loop.mjs): milliseconds for all.
 */
async function bareLoop(url, items, concurrency, dir) {
  const file = join(dir, 'bare-items.ndjson');
  const lines = items.map(({ body, headers }) =>
    JSON.stringify({
      body: body.toString('base64'),
      headers: {
        'content-type': 'application/json',
        'user-agent': headers['user-agent'],
        'x-razorpay-signature': headers['x-razorpay-signature'],
        'x-razorpay-event-id': headers['x-razorpay-event-id'],
      },
    }),
  );
  writeFileSync(file, `${lines.join('\n')}\n`);
  const child = spawn(process.execPath, [BARE], {
    env: { ...process.env, BENCH_ITEMS: file, BENCH_URL: url, BENCH_CONCURRENCY: String(concurrency) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const code = await new Promise((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`the bare POST loop failed (exit ${code})`);
  return Number(out);
}

/**
 * The backlog: `events` payment.authorized events made while the handler is down, delivered by the
 * sandbox through `webhooks listen` once it is back. Answers both rates (events a second) and their
 * ratio; throws if a delivery is missing, repeated in its first copy, or does not verify.
 */
export async function listenBacklog({ events = 2000, concurrency = 16, env = process.env } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'payctl-bench-listen-'));
  const runEnv = { ...env, PAYCTL_HOME: home };
  for (const k of Object.keys(runEnv)) if (k.startsWith('PAYCTL_') && k !== 'PAYCTL_HOME') delete runEnv[k];
  const sandbox = spawn(
    process.execPath,
    [BIN, 'sandbox', 'start', '--port', '0', '--db', join(home, 's.db'), '-o', 'json'],
    {
      env: runEnv,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const info = JSON.parse(
    await new Promise((resolve) => createInterface({ input: sandbox.stdout }).once('line', resolve)),
  );
  const auth = `Basic ${Buffer.from(`${info.key_id}:${info.key_secret}`).toString('base64')}`;
  const admin = async (method, path, body) => {
    const res = await fetch(`${info.origin}/_sandbox${path}`, {
      method,
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json();
  };
  const port = await freePort();
  const target = handler(port);
  const url = `http://127.0.0.1:${port}/hooks`;
  const apiEnv = {
    ...runEnv,
    PAYCTL_BASE_URL: info.base_url,
    PAYCTL_KEY_ID: info.key_id,
    PAYCTL_KEY_SECRET: info.key_secret,
  };
  const listener = spawn(process.execPath, [BIN, 'webhooks', 'listen', '--forward-to', url, '-o', 'ndjson'], {
    env: apiEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let said = '';
  listener.stderr.on('data', (d) => (said += d));
  try {
    while (!said.includes('Ctrl-C stops')) await sleep(50);
    for (let made = 0; made < events; made += 500)
      await admin('POST', '/seed', { authorized: Math.min(500, events - made) });
    // Every delivery tried once and failed: the backlog waits for its retries.
    for (;;) {
      const { items } = await admin('GET', '/webhooks');
      const hook = items.find((w) => w.url === url && w.live);
      const { items: tried } = await admin('POST', '/webhooks/deliveries', {});
      if (hook?.waiting === events && tried.filter((a) => a.status === null).length >= Math.min(events, 1000)) break;
      await sleep(100);
    }
    const began = performance.now();
    await target.up();
    await target.until(events);
    const listenMs = performance.now() - began;
    const items = [...target.got.values()];
    for (const { body, headers } of items) {
      const sig = createHmac('sha256', info.webhook_secret).update(body).digest('hex');
      if (sig !== headers['x-razorpay-signature']) throw new Error('a forwarded delivery does not verify');
    }
    const bareMs = await bareLoop(url, items, concurrency, home);
    const listenRate = (events / listenMs) * 1000;
    const bareRate = (events / bareMs) * 1000;
    return { events, concurrency, listenMs, bareMs, listenRate, bareRate, ratio: listenRate / bareRate };
  } finally {
    listener.kill('SIGINT');
    await new Promise((resolve) => listener.once('close', resolve));
    sandbox.kill('SIGTERM');
    await new Promise((resolve) => sandbox.once('close', resolve));
    await target.down();
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await listenBacklog({ events: Number(flag('events', 2000)), concurrency: Number(flag('concurrency', 16)) });
  console.log(
    `listen backlog of ${r.events} events, ${r.concurrency} at once: listen ${r.listenRate.toFixed(0)}/s ` +
      `(${r.listenMs.toFixed(0)} ms), bare loop ${r.bareRate.toFixed(0)}/s (${r.bareMs.toFixed(0)} ms): ` +
      `ratio ${r.ratio.toFixed(2)} (target at least 0.5)`,
  );
}
