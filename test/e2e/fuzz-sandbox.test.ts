import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../src/contract';
import type { EndpointName } from '../../src/contract';
import { PATHS, SQL, fuzzTargetForFile } from './fuzz-target';

// Hostile requests straight at the sandbox: bad JSON, wrong types, oversized values, path tricks and
// SQL-looking strings. Each must be answered 400 with the service's error object, never a 500, and
// leave every stored record exactly as it was.

const { ids, state, expect400, valid } = fuzzTargetForFile();

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
