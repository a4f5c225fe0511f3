import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run } from './harness';
import { serviceForFile } from './stand-in';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/real/${name}`, import.meta.url), 'utf8');

/** Answers like the real service with the payloads in test/fixtures/real (unknown fields, notes: [], null fees). */
const routes: Record<string, string> = {
  '/v1/payments': fixture('payment_collection.json'),
  // The real payload under an id payctl takes (the vendored one is "fake_payment_id"): a read gets the record asked for.
  '/v1/payments/pay_G8VQzjPLoAvm6D': JSON.stringify({
    ...JSON.parse(fixture('payment.json')),
    id: 'pay_G8VQzjPLoAvm6D',
  }),
  '/v1/orders': fixture('order_collection.json'),
};

/** A collection's page as the service pages it (`skip`, then `count`, default 10); a record as it is. */
function page(body: string | undefined, query: URLSearchParams): string | undefined {
  if (!body) return body;
  const json = JSON.parse(body) as { entity?: string; items?: unknown[] };
  if (json.entity !== 'collection' || !json.items) return body;
  const skip = Number(query.get('skip') ?? 0);
  const items = json.items.slice(skip, skip + Number(query.get('count') ?? 10));
  return JSON.stringify({ ...json, count: items.length, items });
}

const env = serviceForFile(
  (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    const body = page(routes[url.pathname], url.searchParams);
    res.writeHead(body ? 200 : 400, { 'content-type': 'application/json' });
    res.end(body ?? JSON.stringify({ error: { code: 'BAD_REQUEST_ERROR', description: 'no such fixture' } }));
  },
  { PAYCTL_KEY_ID: 'rzp_test_fixture', PAYCTL_KEY_SECRET: 'fixture-secret-000', PAYCTL_TZ: 'Asia/Kolkata' },
);

describe('real payloads print in all four formats', () => {
  const items = JSON.parse(routes['/v1/payments']!).items as Array<Record<string, unknown>>;

  it('json keeps every field exactly', async () => {
    const res = await run(['-o', 'json', 'payments', 'list'], { env });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual(items);
    const one = await run(['-o', 'json', 'payments', 'get', 'pay_G8VQzjPLoAvm6D'], { env });
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual(JSON.parse(routes['/v1/payments/pay_G8VQzjPLoAvm6D']!));
  });

  it('ndjson has one object per line', async () => {
    const res = await run(['-o', 'ndjson', 'payments', 'list'], { env });
    expect(res.code, res.stderr).toBe(0);
    expect(
      res.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(items);
  });

  it('csv has a header and a row per item, amounts as integers and in human form', async () => {
    const res = await run(['-o', 'csv', 'payments', 'list'], { env });
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines).toHaveLength(items.length + 1);
    expect(lines[0]).toMatch(/^id,/);
    expect(lines[0]).toContain('amount_display');
    expect(res.stdout).toContain(String(items[0]!.id));
  });

  it('table shows ids, human amounts and local times', async () => {
    const res = await run(['-o', 'table', 'payments', 'list'], { env });
    expect(res.code, res.stderr).toBe(0);
    for (const item of items) expect(res.stdout).toContain(String(item.id));
    expect(res.stdout).toMatch(/₹/);
    const order = await run(['-o', 'table', 'orders', 'list'], { env });
    expect(order.code, order.stderr).toBe(0);
  });

  it('a payment with notes: [] and null fee prints as a table', async () => {
    const res = await run(['-o', 'table', 'payments', 'get', 'pay_G8VQzjPLoAvm6D'], { env });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('pay_G8VQzjPLoAvm6D');
  });
});
