import { lstatSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, runJson, sandboxForFile, scratchDir } from './harness';
import { shell } from './shell';
import { readXlsx, sheetRows } from './exports-workbook';
import type { Sheet } from './exports-workbook';

type Row = Record<string, string>;
interface Payment {
  id: string;
  status: string;
  amount: number;
  currency: string;
}

const sb = sandboxForFile();
const dir = scratchDir('payctl-complete-');
let every: Payment[];
beforeAll(async () => {
  await runJson(sb, ['sandbox', 'seed', '30']);
  await sb.admin('POST', '/seed', { authorized: 120 });
  for (const amount of ['12345', '99', '500000']) {
    const order = await runJson<{ id: string }>(sb, ['orders', 'create', '--amount', amount, '--currency', 'USD']);
    expect(order.code, order.stderr).toBe(0);
    await runJson(sb, ['sandbox', 'pay', order.data!.id]);
  }
  every = (await runJson<Payment[]>(sb, ['payments', 'list', '--all'])).data!;
  expect(every.length).toBeGreaterThan(140);
});

/** A bash script as a user types it: `payctl` is the built bin, the sandbox's ad-hoc profile in the environment. */
const sh = (script: string, timeoutMs = 60_000) =>
  shell(
    `payctl() { "$NODE" "$BIN" "$@"; }\n${script}`,
    { ...sb.env, NODE: process.execPath, BIN, FORCE_COLOR: undefined },
    timeoutMs,
    { shell: 'bash', cwd: dir },
  );
const csvRows = (name: string) => parse(readFileSync(join(dir, name), 'utf8'), { columns: true }) as Row[];
const sumBy = (rows: Array<{ currency: string; amount: number }>) => {
  const sums: Record<string, number> = {};
  for (const r of rows) sums[r.currency] = (sums[r.currency] ?? 0) + r.amount;
  return sums;
};

describe('a list never ends short in silence', () => {
  it('`payments list --from … --to … -o csv > file` writes every row, exit 0, totals on stderr', async () => {
    const res = await sh('payctl payments list --from 7d --to now -o csv > range.csv');
    expect(res.code, res.stderr).toBe(0);
    const rows = csvRows('range.csv');
    expect(rows).toHaveLength(every.length);
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(every.map((p) => p.id)));
    expect(res.stderr).toMatch(/^totals: .*amount INR ₹[\d,.]+ \(\d+ paise\)/m);
    expect(res.stderr).toMatch(/amount USD \$[\d,.]+ \(\d+ cents\)/);
  });

  it('`-o ndjson | head -3`: three lines, and payctl stops quietly with exit 0', async () => {
    const res = await sh('payctl payments list -o ndjson | head -n 3; echo "payctl=${PIPESTATUS[0]}" >&2');
    expect(res.stdout.trim().split('\n')).toHaveLength(3);
    expect(res.stderr).toMatch(/payctl=0/);
    expect(res.stderr).not.toMatch(/error|EPIPE/i);
  });

  it('`--status authorized -o ndjson | wc -l` counts every authorized payment, not a page of them', async () => {
    const res = await sh('payctl payments list --status authorized -o ndjson | wc -l');
    expect(res.code, res.stderr).toBe(0);
    const authorized = every.filter((p) => p.status === 'authorized').length;
    expect(authorized).toBeGreaterThan(100);
    expect(Number(res.stdout.trim())).toBe(authorized);
  });

  it('`wallet statement … -o csv > st.csv` holds the whole period, its start included', async () => {
    const seeded = await sb.admin<{ customer_ids: string[] }>('POST', '/seed', { wallet_entries: 27 });
    const cust = seeded.customer_ids.at(-1)!;
    const res = await sh(`payctl wallet statement ${cust} --from 2d --to now -o csv > st.csv`);
    expect(res.code, res.stderr).toBe(0);
    const rows = csvRows('st.csv');
    expect(rows).toHaveLength(27);
    expect(new Set(rows.map((r) => r.currency))).toEqual(new Set(['INR']));
  });

  it('--limit N stays exact and says so; --count is the one page asked for', async () => {
    const limited = await sh('payctl payments list -o ndjson --limit 15 | wc -l');
    expect(Number(limited.stdout.trim())).toBe(15);
    expect(limited.stderr).toMatch(/stopped at --limit 15: more payments may exist/);
    const page = await sh('payctl payments list -o csv --count 5 > page.csv');
    expect(page.code).toBe(0);
    expect(csvRows('page.csv')).toHaveLength(5);
  });

  it('`payctl api GET /payments` to a pipe: a full page is exit 1 naming --all; --all is complete', async () => {
    const one = await sh('payctl api GET /payments > page.json');
    expect(one.code).toBe(1);
    expect(one.stderr).toMatch(/one page of 10 rows of \/payments: more may exist; --all walks every page/);
    expect((JSON.parse(readFileSync(join(dir, 'page.json'), 'utf8')) as { items: unknown[] }).items).toHaveLength(10);
    const exact = await sh('payctl api GET /payments -F count=5 -o ndjson | wc -l');
    expect(Number(exact.stdout.trim())).toBe(5);
    const all = await sh('payctl api GET /payments --all -o ndjson | wc -l; echo "payctl=${PIPESTATUS[0]}" >&2');
    expect(Number(all.stdout.trim())).toBe(every.length);
    expect(all.stderr).toMatch(/payctl=0/);
    const limited = await sh('payctl api GET /payments --all --limit 7 -o ndjson | wc -l');
    expect(Number(limited.stdout.trim())).toBe(7);
    expect(limited.stderr).toMatch(/stopped at --limit 7/);
  });
});

describe('money exports name the currency', () => {
  it('CSV: a currency column beside every amount, USD and INR rows each summed apart', async () => {
    const res = await sh('payctl payments list --from 7d --to now --out mixed.csv');
    expect(res.code, res.stderr).toBe(0);
    const rows = csvRows('mixed.csv');
    expect(Object.keys(rows[0]!).slice(0, 5)).toEqual(['id', 'status', 'amount', 'amount_display', 'currency']);
    const got = sumBy(rows.map((r) => ({ currency: r.currency!, amount: Number(r.amount) })));
    expect(got).toEqual(sumBy(every));
    expect(Object.keys(got).sort()).toEqual(['INR', 'USD']);
    expect(rows.find((r) => r.currency === 'USD' && r.amount === '12345')?.amount_display).toBe('$123.45');
    expect(res.stderr).toMatch(/\(\d+ paise\)/);
    expect(res.stderr).toMatch(/\(\d+ cents\)/);
    expect(res.stderr).not.toMatch(/\(\d+ (INR|USD)\)/);
  });

  it('xlsx: a currency column, and the Summary sheet totals each currency in its own row and unit', async () => {
    const res = await sh('payctl payments list --from 7d --to now --out mixed.xlsx');
    expect(res.code, res.stderr).toBe(0);
    const book = readXlsx(join(dir, 'mixed.xlsx')) as Record<string, Sheet>;
    const rows = sheetRows(book.Payments!);
    expect(rows).toHaveLength(every.length);
    expect(new Set(rows.map((r) => r.currency!.v))).toEqual(new Set(['INR', 'USD']));
    const summary = book.Summary!.rows.map((r) => r.map((c) => c.v));
    const want = sumBy(every);
    for (const [currency, unit] of [
      ['INR', 'paise'],
      ['USD', 'cents'],
    ])
      expect(summary).toContainEqual(['amount', currency, want[currency!]! / 100, want[currency!], unit]);
  });
});

describe('--out onto what is not a regular file', () => {
  it('/dev/stdout writes through to the pipe or the redirected file; /dev/stdout stays what it was', async () => {
    const before = readlinkSync('/dev/stdout');
    const piped = await sh('payctl payments list --limit 4 -o csv --out /dev/stdout | cat');
    expect(piped.code, piped.stderr).toBe(0);
    expect(parse(piped.stdout, { columns: true })).toHaveLength(4);
    const redirected = await sh('payctl payments list --limit 3 -o csv --out /dev/stdout > via-stdout.csv');
    expect(redirected.code, redirected.stderr).toBe(0);
    expect(csvRows('via-stdout.csv')).toHaveLength(3);
    expect(lstatSync('/dev/stdout').isSymbolicLink()).toBe(true);
    expect(readlinkSync('/dev/stdout')).toBe(before);
    const devnull = await sh('payctl payments list --out /dev/null -o csv');
    expect(devnull.code, devnull.stderr).toBe(0);
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it('a symlink: the file it points to gets the rows, the link stays a link; a directory link is exit 2', async () => {
    writeFileSync(join(dir, 'target.csv'), 'old\n');
    symlinkSync('target.csv', join(dir, 'latest.csv'));
    const res = await sh('payctl payments list --limit 2 --out latest.csv');
    expect(res.code, res.stderr).toBe(0);
    expect(lstatSync(join(dir, 'latest.csv')).isSymbolicLink()).toBe(true);
    expect(csvRows('target.csv')).toHaveLength(2);
    symlinkSync(tmpdir(), join(dir, 'dir-link.csv'));
    const refused = await sh('payctl payments list --out dir-link.csv');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--out dir-link\.csv: is a directory/);
  });
});
