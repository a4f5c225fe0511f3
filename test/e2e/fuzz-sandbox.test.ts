import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/contract';
import type { EndpointName } from '../../src/contract';
import { startSandbox } from './harness';
import type { SandboxProcess } from './harness';

// Hostile requests straight at the sandbox: bad JSON, wrong types, oversized values, path tricks and
// SQL-looking strings. Each must be answered 400 with the service's error object, never a 500, and
// leave every stored record exactly as it was.

let sb: SandboxProcess;
let db: DatabaseSync;
let auth: string;
const ids: Record<string, string> = {};

/** A digest of everything the sandbox stores. */
function state(): string {
  const rows = db.prepare('SELECT id, status, due_at, data FROM records ORDER BY seq').all();
  const applied = db.prepare('SELECT * FROM applied ORDER BY payment_id, kind').all();
  return createHash('sha256')
    .update(JSON.stringify([rows, applied]))
    .digest('hex');
}

/** A raw request: the path goes out exactly as written (no normalisation of `..` or `%2F`). */
function raw(method: string, path: string, body?: string): Promise<{ status: number; json: unknown }> {
  const url = new URL(sb.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { authorization: auth, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = text;
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function expect400(method: string, path: string, body?: string) {
  const res = await raw(method, path, body);
  const err = (res.json as { error?: { code?: string; description?: string } })?.error;
  if (res.status !== 400 || err?.code !== 'BAD_REQUEST_ERROR' || !err.description) {
    throw new Error(
      `${method} ${path} ${body?.slice(0, 300) ?? ''} -> ${res.status} ${JSON.stringify(res.json).slice(0, 300)}`,
    );
  }
}

beforeAll(async () => {
  const dir = (await import('node:fs')).mkdtempSync(join((await import('node:os')).tmpdir(), 'payctl-fuzz-sb-'));
  sb = await startSandbox(['--db', join(dir, 'fuzz.db')]);
  auth = 'Basic ' + Buffer.from(`${sb.keyId}:${sb.keySecret}`).toString('base64');
  const seeded = await sb.admin<{ payment_ids: string[]; customer_ids: string[] }>('POST', '/seed', {
    orders: 6,
    authorized: 2,
  });
  ids.authorized = seeded.payment_ids[0]!;
  ids.captured = seeded.payment_ids[1]!;
  await sb.api('POST', `/payments/${ids.captured}/capture`, { amount: 50000, currency: 'INR' });
  ids.customer = seeded.customer_ids[0]!;
  ids.order = (await sb.api<{ id: string }>('POST', '/orders', { amount: 10000, currency: 'INR' })).body.id;
  await sb.api('POST', '/transfers', { customer_id: ids.customer, amount: 20000, currency: 'INR' });
  ids.fundAccount = (
    await sb.api<{ id: string }>('POST', '/fund_accounts', {
      customer_id: ids.customer,
      account_type: 'bank_account',
      bank_account: { name: 'Asha Rao', ifsc: 'HDFC0000053', account_number: '765432123456789' },
    })
  ).body.id;
  ids.plan = (
    await sb.api<{ id: string }>('POST', '/plans', {
      period: 'monthly',
      interval: 1,
      item: { name: 'Gold', amount: 49900, currency: 'INR' },
    })
  ).body.id;
  ids.subscription = (
    await sb.api<{ id: string }>('POST', '/subscriptions', { plan_id: ids.plan, total_count: 6 })
  ).body.id;
  db = new DatabaseSync(join(dir, 'fuzz.db'), { readOnly: true });
});
afterAll(async () => {
  db?.close();
  await sb?.stop();
});

/** Valid requests for every write endpoint: each case below spoils exactly one part of one of them. */
const valid = (): Partial<Record<EndpointName, { id?: string; body: Record<string, unknown> }>> => ({
  createOrder: { body: { amount: 5000, currency: 'INR', receipt: 'fuzz', notes: { a: 'b' } } },
  createPlan: { body: { period: 'weekly', interval: 1, item: { name: 'Fuzz', amount: 1000, currency: 'INR' } } },
  createSubscription: { body: { plan_id: ids.plan, total_count: 3 } },
  cancelSubscription: { id: ids.subscription, body: { cancel_at_cycle_end: 1 } },
  capturePayment: { id: ids.authorized, body: { amount: 50000, currency: 'INR' } },
  refundPayment: { id: ids.captured, body: { amount: 100, receipt: 'r', notes: {} } },
  transferPayment: {
    id: ids.captured,
    body: { transfers: [{ customer: ids.customer, amount: 100, currency: 'INR' }] },
  },
  createWalletPayment: {
    body: {
      method: 'wallet',
      wallet: 'openwallet',
      customer_id: ids.customer,
      order_id: ids.order,
      amount: 10000,
      currency: 'INR',
      contact: '+919876543210',
      email: 'a@example.com',
    },
  },
  createDirectTransfer: { body: { customer_id: ids.customer, amount: 100, currency: 'INR' } },
  createFundAccount: {
    body: {
      customer_id: ids.customer,
      account_type: 'bank_account',
      bank_account: { name: 'A', ifsc: 'HDFC0000053', account_number: '12345678' },
    },
  },
  createPayout: {
    id: ids.customer,
    body: { fund_account_id: ids.fundAccount, purpose: 'refund', amount: 100, currency: 'INR' },
  },
});

const SQL = [
  "' OR '1'='1",
  '1; DROP TABLE records; --',
  '" OR ""="',
  "x') UNION SELECT data FROM records --",
  '%27%20OR%201=1',
];
const PATHS = [
  '../../orders',
  '..%2F..%2Forders',
  '%2e%2e%2f',
  'pay_x%2Fcapture',
  '%00',
  '%252F',
  'pay_%E2%80%AE',
  '.',
  '..',
];
const WRONG_TYPES = [null, true, [], {}, [1, 2], { $gt: '' }, 'x'.repeat(2_000), ...SQL];

/** Values no field of that kind accepts. */
function hostileFor(value: unknown, field: string): fc.Arbitrary<unknown> {
  // Digit strings are accepted for amounts, and true/false/0 for 0/1 flags, as the real service does.
  const below = field === 'amount' || field === 'interval' || field === 'total_count' ? [-1, 0] : [];
  if (typeof value === 'number')
    return fc.constantFrom('1e3', 1.5, 1e21, ...below, ...WRONG_TYPES.filter((v) => v !== true), ...PATHS);
  if (typeof value === 'string')
    return fc.constantFrom(
      12345,
      null,
      [],
      {},
      true,
      { toString: 'x' },
      '',
      'x'.repeat(5_000),
      ...PATHS.filter((p) => p.includes('/') || p.includes('%')),
      ...SQL,
    );
  if (Array.isArray(value)) return fc.constantFrom('x', {}, [], [1], null, [{}, {}]);
  if (value && typeof value === 'object')
    return fc.constantFrom(
      'notes',
      5,
      [1],
      null,
      { a: { b: 1 } },
      Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, 'v'])),
      { k: 'x'.repeat(300) },
    );
  return fc.constantFrom(null, 'x', 1, []);
}

// Fields whose every string is acceptable (free text): only wrong types and oversized values apply.
const FREE_TEXT = new Set([
  'receipt',
  'description',
  'purpose',
  'narration',
  'reference_id',
  'name',
  'email',
  'contact',
]);

describe('sandbox input fuzzing: 400 with the error object, state unchanged, never a 500', () => {
  it('one spoiled field in an otherwise valid request', async () => {
    const before = state();
    const cases = Object.entries(valid()).flatMap(([name, v]) =>
      Object.keys(v!.body).map((field) => [name as EndpointName, field] as const),
    );
    const arb = fc.constantFrom(...cases).chain(([name, field]) => {
      const base = valid()[name]!;
      let spoil = hostileFor(base.body[field], field);
      if (FREE_TEXT.has(field)) spoil = spoil.filter((v) => typeof v !== 'string' || v.length > 1_000);
      if (field === 'notes')
        spoil = spoil.filter((v) => !(v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0));
      return spoil.map((value) => ({ name, field, value, base }));
    });
    await fc.assert(
      fc.asyncProperty(arb, async ({ name, field, value, base }) => {
        const ep = endpoints[name];
        const path = `/v1${ep.path.replace(':id', encodeURIComponent(base.id ?? ''))}`;
        await expect400(ep.method, path, JSON.stringify({ ...base.body, [field]: value }));
      }),
      { numRuns: 600, seed: 20261122 },
    );
    expect(state()).toBe(before);
  }, 120_000);

  it('bad JSON, non-object bodies and oversized bodies', async () => {
    const before = state();
    const bodies = fc.oneof(
      fc.constantFrom(
        '{',
        '{"amount": 100,',
        'null',
        '[]',
        '"x"',
        '42',
        'true',
        '{"a":1}{"b":2}',
        '\u0000',
        'NaN',
        '{amount: 100}',
        "{'amount': 100}",
      ),
      fc.string({ unit: 'binary', maxLength: 50 }).filter((s) => {
        try {
          const v = JSON.parse(s);
          return v === null || typeof v !== 'object' || Array.isArray(v);
        } catch {
          return true;
        }
      }),
      fc.constant(JSON.stringify({ amount: 100, currency: 'INR', notes: { k: 'x'.repeat(2 * 1024 * 1024) } })),
    );
    const posts = Object.entries(valid()).map(
      ([name, v]) => `/v1${endpoints[name as EndpointName].path.replace(':id', v!.id ?? '')}`,
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...posts), bodies, async (path, body) => {
        if (body.trim() === '') return; // an empty body is read as {} (then refused for missing fields below)
        await expect400('POST', path, body);
      }),
      { numRuns: 300, seed: 20261122 },
    );
    // An empty body is {}: refused wherever a field is required (cancelling needs none).
    for (const path of posts.filter((p) => !p.endsWith('/cancel'))) await expect400('POST', path, '');
    expect(state()).toBe(before);
  }, 120_000);

  it('path tricks and SQL in ids and query parameters', async () => {
    const before = state();
    const idPaths = Object.entries(endpoints)
      .filter(([, ep]) => ep.path.includes(':id'))
      .map(([, ep]) => ep);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...idPaths),
        fc.constantFrom(...PATHS, ...SQL.map(encodeURIComponent), 'pay_1%27%20OR%20%271%27=%271'),
        async (ep, trick) => {
          const body = ep.method === 'POST' ? JSON.stringify(valid().capturePayment!.body) : undefined;
          await expect400(ep.method, `/v1${ep.path.replace(':id', trick)}`, body);
        },
      ),
      { numRuns: 300, seed: 20261122 },
    );
    const lists = [
      '/v1/orders',
      '/v1/payments',
      '/v1/refunds',
      `/v1/payments/${ids.captured}/refunds`,
      `/v1/customers/${ids.customer}/statement`,
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...lists),
        fc.constantFrom('count', 'skip', 'from', 'to'),
        fc.constantFrom(...SQL, '-1', '1.5', 'abc', '101', '1e3', '', '%00'),
        async (path, key, value) => {
          if (key !== 'count' && (value === '' || value === '101')) return; // 101 is a fine Unix time or skip
          await expect400('GET', `${path}?${key}=${encodeURIComponent(value)}`);
        },
      ),
      { numRuns: 300, seed: 20261122 },
    );
    // Dot segments must not turn into another endpoint: this would otherwise be POST /v1/orders.
    await expect400('POST', `/v1/payments/${ids.captured}/../../orders`, JSON.stringify(valid().createOrder!.body));
    await expect400(
      'POST',
      `/v1/payments/${ids.captured}/%2E%2E/%2E%2E/orders`,
      JSON.stringify(valid().createOrder!.body),
    );
    expect(state()).toBe(before);
  }, 120_000);
});
