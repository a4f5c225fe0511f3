import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { ndjson, run, scratchDir } from './harness';
import { pagedList, payment, refund, standInForFile } from './stand-in';

/**
 * Lists against a stand-in service whose pages do not behave: short pages, rows inserted, repeated or
 * gone between pages. Each run ends with every row once (exit 0), or a named error, exit 1 and no file.
 */
const stand = standInForFile();
const dir = scratchDir('payctl-hostile-lists-');
const payments = (n: number) => Array.from({ length: n }, (_, i) => payment(i));
const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id).sort();
const csvIds = (file: string) =>
  ids(parse(readFileSync(join(dir, file), 'utf8'), { columns: true }) as { id: string }[]);
const payctl = (args: string[], env: Record<string, string> = stand.env) => run(args, { env, timeoutMs: 60_000 });
const CHANGED = /^payctl: the service's list changed while it was read: /m;

describe('a short page is "maybe more", not the end', () => {
  it.each([37, 50, 99])(
    'a service whose pages hold at most %i rows: `payments list --all` gives every row once',
    async (cap) => {
      const rows = payments(430);
      stand.on('GET /payments', pagedList(rows, { cap }));
      const res = await payctl(['payments', 'list', '--all', '-o', 'ndjson']);
      expect(res.code, res.stderr).toBe(0);
      const got = ndjson<{ id: string }>(res.stdout);
      expect(got).toHaveLength(430);
      expect(ids(got)).toEqual(ids(rows));
    },
  );

  it('99 of 100 on one page in the middle: `payments list --out` writes every row', async () => {
    const rows = payments(350);
    stand.on('GET /payments', pagedList(rows, { shortAt: 99 }));
    const res = await payctl(['payments', 'list', '--out', join(dir, 'short.csv')]);
    expect(res.code, res.stderr).toBe(0);
    expect(csvIds('short.csv')).toEqual(ids(rows));
  });

  it('`api GET /refunds --all` over short pages: every row once', async () => {
    const rows = Array.from({ length: 260 }, (_, i) => refund(i));
    stand.on('GET /refunds', pagedList(rows, { cap: 60, shortAt: 59 }));
    const res = await payctl(['api', 'GET', '/refunds', '--all', '-o', 'ndjson']);
    expect(res.code, res.stderr).toBe(0);
    expect(ids(ndjson<{ id: string }>(res.stdout))).toEqual(ids(rows));
  });

  it('with a stored profile: `settlements list --all` over a service of 25-row pages is complete', async () => {
    const home = join(dir, 'home');
    const added = await run(
      ['profile', 'add', 'standin', '--key-id', stand.keyId, '--key-secret-stdin', '--base-url', stand.baseUrl],
      { env: { PAYCTL_HOME: home }, input: stand.keySecret },
    );
    expect(added.code, added.stderr).toBe(0);
    const settlements = Array.from({ length: 120 }, (_, i) => ({
      id: `setl_Stand${String(i).padStart(8, '0')}`,
      entity: 'settlement',
      amount: 1000 + i,
      status: 'processed',
      fees: 20,
      tax: 3,
      utr: `utr${i}`,
      created_at: 1_714_000_000 + i * 86_400,
    }));
    stand.on('GET /settlements', pagedList(settlements, { cap: 25 }));
    const res = await payctl(['settlements', 'list', '--all', '-p', 'standin', '-o', 'json'], { PAYCTL_HOME: home });
    expect(res.code, res.stderr).toBe(0);
    expect(ids(JSON.parse(res.stdout))).toEqual(ids(settlements));
  });
});

describe('rows that move between pages are a finding, never a silent file', () => {
  /** A backdated row slipped in below the top after the first page: one row comes twice, the new one never. */
  const inserted = () => {
    const rows = payments(300);
    stand.on(
      'GET /payments',
      pagedList(rows, { afterPage: (n) => void (n === 1 && rows.push(payment(250, { id: 'pay_Backdated000001' }))) }),
    );
  };
  /** A row gone after the first page: the rows after it slide up past the walk, one unread. */
  const vanished = () => {
    const rows = payments(300);
    stand.on('GET /payments', pagedList(rows, { afterPage: (n) => void (n === 1 && rows.splice(250, 1)) }));
  };

  it.each([
    ['inserted', inserted, /pay_Stand000000201 is on two pages/],
    ['vanished', vanished, /a page starts on pay_Stand000000199, not on pay_Stand000000200/],
  ])(
    'a row %s between pages: `payments list --out` exits 1 naming it and writes nothing',
    async (name, script, why) => {
      script();
      const file = join(dir, `${name}.csv`);
      const res = await payctl(['payments', 'list', '--out', file]);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(CHANGED);
      expect(res.stderr).toMatch(why);
      expect(res.stderr).toMatch(/rows may be missing/);
      expect(existsSync(file)).toBe(false);
    },
  );

  it('an export already on disk is left as it was when the walk fails', async () => {
    inserted();
    const file = join(dir, 'kept.csv');
    writeFileSync(file, 'last month\n');
    const res = await payctl(['payments', 'list', '--from', '2024-04-01', '--to', '2024-05-31', '--out', file]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(CHANGED);
    expect(readFileSync(file, 'utf8')).toBe('last month\n');
  });

  it('`payments list --all -o ndjson` to a pipe: exit 1 with the finding on stderr', async () => {
    vanished();
    const res = await payctl(['payments', 'list', '--all', '-o', 'ndjson']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(CHANGED);
  });

  it('`api GET /payments --all`: a row on two pages is exit 1, not a longer list', async () => {
    inserted();
    const res = await payctl(['api', 'GET', '/payments', '--all', '-o', 'ndjson']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/pay_Stand000000201 is on two pages/);
  });

  it('a row twice on one page: exit 1 naming it', async () => {
    const rows = payments(50);
    const twice = pagedList(rows);
    stand.on('GET /payments', (asked, params) => {
      const answer = twice(asked, params)!;
      const items = (answer.body as { items: unknown[] }).items;
      return { body: { entity: 'collection', count: items.length + 1, items: [...items, items[3]] } };
    });
    const res = await payctl(['payments', 'list', '--all', '-o', 'json']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/pay_Stand000000046 is on the list twice/);
  });

  it('rows created on top during the walk are left for the next run: the list as it was, exit 0', async () => {
    const rows = payments(250);
    let more = 0;
    stand.on(
      'GET /payments',
      pagedList(rows, { afterPage: () => void rows.push(payment(249, { id: `pay_Newer${more++}` })) }),
    );
    const res = await payctl(['payments', 'list', '--all', '-o', 'ndjson']);
    expect(res.code, res.stderr).toBe(0);
    expect(ids(ndjson<{ id: string }>(res.stdout))).toEqual(ids(payments(250)));
  });
});
