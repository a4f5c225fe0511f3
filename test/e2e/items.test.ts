import { beforeAll, describe, expect, it } from 'vitest';
import { exactSchema } from '../../src/contract/served';
import { run, runJson, sandboxForFile } from './harness';

interface Item {
  id: string;
  entity: string;
  name: string;
  amount: number;
  active: boolean;
  hsn_code: string | null;
  sac_code: string | null;
}

const sb = sandboxForFile();
let items: Item[] = [];

beforeAll(async () => {
  const seeded = await run(['sandbox', 'seed', '1'], { env: sb.env });
  expect(seeded.code, seeded.stderr).toBe(0);
  const res = await runJson<Item[]>(sb, ['items', 'list']);
  expect(res.code, res.stderr).toBe(0);
  items = res.data!;
});

describe('payctl items', () => {
  it('list answers the seeded catalogue, newest first, each item exactly as the service sends one', () => {
    expect(items.map((i) => i.name)).toEqual(['Gift wrap', 'Setup service', 'Ceramic mug', 'Cotton T-shirt']);
    for (const item of items) {
      expect(item.id).toMatch(/^item_[A-Za-z0-9]{14}$/);
      expect(exactSchema('item').safeParse(item).success, JSON.stringify(item)).toBe(true);
    }
    expect(items.find((i) => i.name === 'Setup service')).toMatchObject({ sac_code: '998313', hsn_code: null });
  });

  it('list shows a table with its money and a CSV with the fields asked for', async () => {
    const table = await run(['items', 'list', '-o', 'table'], { env: sb.env });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/Cotton T-shirt\s+₹499\.00/);
    const csv = await run(['items', 'list', '-o', 'csv', '--fields', 'id,name,hsn_code'], { env: sb.env });
    expect(csv.stdout.split('\n')[0]).toBe('id,name,hsn_code');
    expect(csv.stdout).toContain(`${items.at(-1)!.id},Cotton T-shirt,6109`);
    const typo = await run(['items', 'list', '--fields', 'id,hsn_cod'], { env: sb.env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('hsn_code');
  });

  it('get reads one item, and many in input order', async () => {
    const one = await runJson<Item>(sb, ['items', 'get', items[1]!.id]);
    expect(one.code, one.stderr).toBe(0);
    expect(one.data).toEqual(items[1]);
    const many = await runJson<Item[]>(sb, ['items', 'get', items[3]!.id, items[0]!.id]);
    expect(many.data!.map((i) => i.id)).toEqual([items[3]!.id, items[0]!.id]);
  });

  it('a malformed id is refused before anything is sent; an unknown one is the service saying so', async () => {
    const bad = await run(['items', 'get', 'nope1'], { env: sb.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('payctl: item id must look like item_XXXXXXXXXXXXXX: got "nope1"');
    const payment = await run(['items', 'get', 'pay_29QQoUBi66xm2f'], { env: sb.env });
    expect(payment.code).toBe(2);
    const missing = await run(['items', 'get', 'item_nope1234567890'], { env: sb.env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no item item_nope1234567890 on this account');
    const mixed = await run(['items', 'get', items[0]!.id, 'item_nope1234567890', '-o', 'json'], { env: sb.env });
    expect(mixed.code).toBe(1);
    expect(JSON.parse(mixed.stdout)[1]).toMatchObject({ id: 'item_nope1234567890', error: expect.any(String) });
  });
});
