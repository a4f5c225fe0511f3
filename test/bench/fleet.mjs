/* global fetch, performance */
// A CI fleet on one sandbox: SUITES test suites at once, each on an account of its own, each making and
// reading its own orders, payments, refunds and events over HTTP, as an app's suite does. Every answer
// is checked: no request fails, and no suite ever sees a record of another. Prints the sandbox's latency
// (p50, p99) and throughput under that load, then the time to save and load a snapshot of an account
// of 10,000 records.
//   node test/bench/fleet.mjs [--suites 50] [--rounds 20]
// `fleet()` and `snapshotTimes()` are what test/bench/run.mjs calls; run alone, this file prints both.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { flag } from './args.mjs';

const BIN = fileURLToPath(new URL('../../bin/payctl.js', import.meta.url));

/** `payctl sandbox start` on a database file of its own, as a team runs it; its keys and a stop. */
export async function startSandbox() {
  const dir = mkdtempSync(join(tmpdir(), 'payctl-fleet-'));
  const env = { ...process.env, PAYCTL_HOME: dir };
  for (const k of Object.keys(env)) if (k.startsWith('PAYCTL_') && k !== 'PAYCTL_HOME') delete env[k];
  const child = spawn(
    process.execPath,
    [BIN, 'sandbox', 'start', '--port', '0', '--db', join(dir, 'sandbox.db'), '-o', 'json'],
    {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code})`)));
  });
  const info = JSON.parse(line);
  return {
    origin: info.origin,
    keys: { key_id: info.key_id, key_secret: info.key_secret },
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A client of one account: every call timed, every non-200 or dropped request counted as a failure. */
function client(origin, keys, stats) {
  const authorization = `Basic ${Buffer.from(`${keys.key_id}:${keys.key_secret}`).toString('base64')}`;
  return async (method, path, body) => {
    const began = performance.now();
    let res;
    try {
      res = await fetch(`${origin}${path}`, {
        method,
        headers: { authorization, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      stats.failures.push(`${method} ${path}: ${err.cause?.code ?? err.message}`);
      return undefined;
    }
    const json = await res.json();
    stats.latencies.push(performance.now() - began);
    if (res.status !== 200) stats.failures.push(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}

/** One suite: its account, then `rounds` of order, checkout, capture, partial refund, and reads of it all. */
async function suite(sb, n, rounds, stats) {
  const made = await client(sb.origin, sb.keys, stats)('POST', '/_sandbox/accounts', { name: `suite-${n}` });
  const call = client(sb.origin, made, stats);
  const mine = new Set();
  const leak = (what, id) => {
    if (id && !mine.has(id)) stats.leaks.push(`suite ${n} saw ${what} ${id}`);
  };
  for (let r = 0; r < rounds; r++) {
    const order = await call('POST', '/v1/orders', { amount: 10_000 + r, currency: 'INR', receipt: `s${n}-${r}` });
    if (!order) continue;
    mine.add(order.id);
    const payment = await call('POST', '/_sandbox/checkout', { order_id: order.id });
    if (!payment?.id) continue;
    mine.add(payment.id);
    await call('POST', `/v1/payments/${payment.id}/capture`, { amount: payment.amount, currency: 'INR' });
    const refund = await call('POST', `/v1/payments/${payment.id}/refund`, { amount: 1_000 });
    if (refund?.id) mine.add(refund.id);
    await call('GET', `/v1/orders/${order.id}`);
    for (const o of (await call('GET', '/v1/orders?count=20'))?.items ?? []) leak('order', o.id);
    for (const p of (await call('GET', '/v1/payments?count=20'))?.items ?? []) leak('payment', p.id);
    for (const f of (await call('GET', '/v1/refunds?count=20'))?.items ?? []) leak('refund', f.id);
    for (const e of (await call('GET', '/_sandbox/events'))?.items ?? []) {
      for (const record of Object.values(e.payload ?? {})) leak(`${e.event} of`, record.entity?.id);
    }
  }
  return mine.size;
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** SUITES suites at once on one sandbox: latency, throughput, failures and records seen across suites. */
export async function fleet({ suites = 50, rounds = 20 } = {}) {
  const sb = await startSandbox();
  const stats = { latencies: [], failures: [], leaks: [] };
  try {
    const began = performance.now();
    const made = await Promise.all(Array.from({ length: suites }, (_, n) => suite(sb, n, rounds, stats)));
    const seconds = (performance.now() - began) / 1000;
    const sorted = [...stats.latencies].sort((a, b) => a - b);
    return {
      suites,
      requests: stats.latencies.length + stats.failures.length,
      records: made.reduce((a, b) => a + b, 0),
      failures: stats.failures,
      leaks: stats.leaks,
      p50: quantile(sorted, 0.5),
      p99: quantile(sorted, 0.99),
      perSecond: stats.latencies.length / seconds,
      seconds,
    };
  } finally {
    await sb.stop();
  }
}

/** Save and load of a snapshot of an account holding at least 10,000 records, each timed over HTTP. */
export async function snapshotTimes() {
  const sb = await startSandbox();
  const stats = { latencies: [], failures: [], leaks: [] };
  try {
    const made = await client(sb.origin, sb.keys, stats)('POST', '/_sandbox/accounts', { name: 'big' });
    const call = client(sb.origin, made, stats);
    await call('POST', '/_sandbox/seed', { authorized: 3400 });
    const { records } = await call('GET', '/_sandbox/stats');
    const timed = async (path) => {
      const began = performance.now();
      await call('POST', path, { name: 'big' });
      return performance.now() - began;
    };
    const save = await timed('/_sandbox/snapshots/save');
    const load = await timed('/_sandbox/snapshots/load');
    if (stats.failures.length) throw new Error(stats.failures.join('\n'));
    return { records: Object.values(records).reduce((a, b) => a + b, 0), save, load };
  } finally {
    await sb.stop();
  }
}

const ms = (x) => `${x.toFixed(1)} ms`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await fleet({ suites: Number(flag('suites', 50)), rounds: Number(flag('rounds', 20)) });
  console.log(
    `fleet: ${r.suites} suites at once, each on its own account: ${r.requests} requests in ${r.seconds.toFixed(1)} s ` +
      `(${r.perSecond.toFixed(0)}/s), p50 ${ms(r.p50)}, p99 ${ms(r.p99)}; ` +
      `${r.failures.length} failed, ${r.leaks.length} records seen by another suite`,
  );
  for (const line of [...r.failures, ...r.leaks].slice(0, 10)) console.log(`  ${line}`);
  const s = await snapshotTimes();
  console.log(`snapshot of an account of ${s.records} records: save ${ms(s.save)}, load ${ms(s.load)}`);
  if (r.failures.length || r.leaks.length) process.exitCode = 1;
}
