import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addProfile, ndjson, run, runJson, sandboxForFile } from './harness';
import { call, structured, withMcp } from './mcp-client';
import type { Rec } from './mcp-client';

const sb = sandboxForFile();
let asha = '';
let vikram = '';
let plan = '';

beforeAll(async () => {
  const customer = (name: string, contact: string) =>
    sb.admin<{ id: string }>('POST', '/customers', { name, contact, email: `${name.split(' ')[0]}@example.com` });
  asha = (await customer('Asha Rao', '+919876543210')).id;
  vikram = (await customer('Vikram Shah', '+919123456780')).id;
  plan = String(
    (
      await sb.api<Rec>('POST', '/plans', {
        period: 'monthly',
        interval: 1,
        item: { name: 'Gold', amount: 49900, currency: 'INR' },
      })
    ).body.id,
  );
});

const create = (customer: string) =>
  runJson<Rec>(sb, ['--yes', 'subscriptions', 'create', '--plan', plan, '--total-count', '12', '--customer', customer]);

describe('from a customer to their subscriptions', () => {
  it('create --customer keeps the customer on the subscription; list --customer shows theirs alone, in every format', async () => {
    const made = [await create(asha), await create(vikram), await create(asha)];
    for (const m of made) expect(m.code).toBe(0);
    expect(made[0]!.data).toMatchObject({ customer_id: asha, plan_id: plan, status: 'created' });
    const ashas = [made[2]!.data!.id, made[0]!.data!.id];

    const json = await runJson<Rec[]>(sb, ['subscriptions', 'list', '--customer', asha, '--all']);
    expect(json.code).toBe(0);
    expect(json.data!.map((s) => s.id)).toEqual(ashas);
    expect(json.data!.every((s) => s.customer_id === asha)).toBe(true);

    const lines = await run(['-o', 'ndjson', 'subscriptions', 'list', '--customer', vikram], { env: sb.env });
    expect(ndjson(lines.stdout).map((s) => s.customer_id)).toEqual([vikram]);

    const csv = await run(['-o', 'csv', 'subscriptions', 'list', '--customer', asha, '--all'], { env: sb.env });
    const [header, ...rows] = csv.stdout.trim().split('\n');
    expect(header).toContain('customer_id');
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toContain(asha);

    const table = await run(['-o', 'table', 'subscriptions', 'list', '--customer', asha], { env: sb.env });
    expect(table.stdout).toContain(asha);
    expect(table.stdout).not.toContain(vikram);
  });

  it('a customer id that is not one, or that does not exist, sends nothing / is refused by the service', async () => {
    const bad = await run(['subscriptions', 'list', '--customer', 'order_X'], { env: sb.env });
    expect(bad.code).toBe(2);
    const missing = await create('cust_AAAAAAAAAAAAAA');
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('The id provided does not exist');
  });

  it('as an assistant reads it: subscriptions_list with customer_id', async () => {
    const env = await addProfile(sb, 'books');
    await withMcp(['-p', 'books'], env, async (client) => {
      const res = await call(client, 'subscriptions_list', { customer_id: vikram, count: '100' });
      const data = structured<{ data: Rec[] }>(res).data;
      expect(data.length).toBeGreaterThan(0);
      expect(data.every((s) => s.customer_id === vikram)).toBe(true);
    });
  });
});

describe('against a service that ignores every filter', () => {
  let server: Server;
  let env: Record<string, string>;
  const sub = (id: string, customer_id: string | null) => ({
    id,
    entity: 'subscription',
    plan_id: 'plan_AAAAAAAAAAAAAA',
    customer_id,
    status: 'active',
    total_count: 12,
    paid_count: 1,
    created_at: 1_700_000_000,
  });
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      const items = [
        sub('sub_AAAAAAAAAAAAA1', 'cust_BBBBBBBBBBBBBB'),
        sub('sub_AAAAAAAAAAAAA2', 'cust_AAAAAAAAAAAAAA'),
        sub('sub_AAAAAAAAAAAAA3', null),
      ];
      // Pages as the service cuts them (count and skip honoured), but no filter applied.
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      const skip = Number(query.get('skip') ?? 0);
      const page = items.slice(skip, skip + Number(query.get('count') ?? 10));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ entity: 'collection', count: page.length, items: page }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    env = {
      PAYCTL_BASE_URL: `http://127.0.0.1:${port}/v1`,
      PAYCTL_KEY_ID: 'rzp_test_ignoring',
      PAYCTL_KEY_SECRET: 'ignoring-secret-123',
    };
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("shows the customer's subscriptions only, whatever the service sends back", async () => {
    const res = await run(['-o', 'json', 'subscriptions', 'list', '--customer', 'cust_AAAAAAAAAAAAAA', '--all'], {
      env,
    });
    expect(res.code).toBe(0);
    expect((JSON.parse(res.stdout) as Rec[]).map((s) => s.id)).toEqual(['sub_AAAAAAAAAAAAA2']);
  });
});
