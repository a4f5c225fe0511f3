import { statSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { run, scratchDir, sandboxForFile } from './harness';
import { at, csvRows, readXlsx, seedStatement as seed, sheetRows } from './exports-workbook';
import type { Sheet } from './exports-workbook';

const dir = scratchDir('payctl-xlsx-');
const sb = sandboxForFile();

const file = (name: string) => join(dir, name);

const seedStatement = (body: Parameters<typeof seed>[1]) => seed(sb, body);

// Month boundaries in IST, where UTC would put rows in the wrong month.
const TIMES = [
  at('2024-03-31T23:59:59+05:30'),
  at('2024-04-01T00:00:00+05:30'),
  at('2024-04-15T12:00:00+05:30'),
  at('2024-04-30T23:59:59+05:30'),
  at('2024-05-01T00:00:00+05:30'),
  at('2024-05-01T03:00:00+05:30'),
  ...Array.from({ length: 40 }, (_, i) => at('2024-05-20T10:00:00+05:30') + Math.floor(i / 4)),
  at('2024-06-30T23:59:59+05:30'),
  at('2024-07-01T00:00:00+05:30'),
];

describe('xlsx', () => {
  it('a statement workbook: typed cells, dates in the zone, frozen header, filter, Summary totals equal the rows', async () => {
    const c = await seedStatement({ wallet_entry_times: TIMES });
    const out = file('statement.xlsx');
    const res = await run(
      ['wallet', 'statement', c, '--from', '2024-04-01', '--to', '2024-06-30', '--tz', 'Asia/Kolkata', '--out', out],
      { env: sb.env },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(
      new RegExp(`wrote 46 rows to .*statement\\.xlsx .*zone Asia/Kolkata\\)\\n${c}: 46 rows, opening ₹`),
    );
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const book = readXlsx(out);
    expect(book.sheets).toEqual(['Statement', 'Summary']);
    const sheet = book.Statement as Sheet;
    expect(sheet.freeze).toBe('A2');
    expect(sheet.filter).toBe('A1:N47');
    const rows = sheetRows(sheet);
    expect(rows).toHaveLength(46);
    for (const r of rows) {
      expect(r.credit!.t).toBe('int');
      expect(r.balance!.t).toBe('int');
      expect(['int', 'float']).toContain(r.credit_display!.t);
      expect(r.credit_display!.f).toContain('₹');
      expect(Number(r.credit_display!.v)).toBeCloseTo(Number(r.credit!.v) / 100, 6);
      expect(r.created_at_local!.t).toBe('date');
      expect(r.created_at_local!.v).toBe(
        DateTime.fromSeconds(Number(r.created_at!.v), { zone: 'Asia/Kolkata' }).toFormat('yyyy-LL-dd HH:mm:ss'),
      );
    }
    expect(rows.map((r) => r.created_at_local!.v)).toContain('2024-04-01 00:00:00');
    expect(rows.map((r) => r.created_at_local!.v)).not.toContain('2024-03-31 23:59:59');
    const summary = (book.Summary as Sheet).rows.map((r) => r.map((x) => x.v));
    expect(summary[0]!.slice(0, 2)).toEqual(['rows', 46]);
    expect(summary.find((r) => r[0] === 'range asked')!.slice(1, 3)).toEqual([expect.anything(), expect.anything()]);
    expect((book.Summary as Sheet).rows.find((r) => r[0]!.v === 'range asked')![1]).toEqual({
      t: 'date',
      v: '2024-04-01 00:00:00',
    });
    expect(summary.find((r) => r[0] === 'time zone')![1]).toBe('Asia/Kolkata');
    const ledger = summary.find((r) => r[0] === c)!;
    const paise = (k: string) => rows.reduce((s, r) => s + Number(r[k]!.v), 0);
    const oldest = rows.at(-1)!;
    expect(ledger[1]).toBe(46);
    expect(Math.round(Number(ledger[3]) * 100)).toBe(paise('credit'));
    expect(Math.round(Number(ledger[4]) * 100)).toBe(paise('debit'));
    expect(Math.round(Number(ledger[5]) * 100)).toBe(Number(rows[0]!.balance!.v));
    expect(Math.round(Number(ledger[2]) * 100)).toBe(
      Number(oldest.balance!.v) - Number(oldest.credit!.v) + Number(oldest.debit!.v),
    );
    expect(Math.round(Number(ledger[2]) * 100) + paise('credit') - paise('debit')).toBe(
      Math.round(Number(ledger[5]) * 100),
    );
  });

  it('month files equal one range, in xlsx as in CSV', async () => {
    const c = await seedStatement({ wallet_entry_times: TIMES });
    const ids: Record<string, { csv: string[]; xlsx: string[] }> = {};
    for (const [name, from, to] of [
      ['apr', '2024-04-01', '2024-04-30'],
      ['may', '2024-05-01', '2024-05-31'],
      ['jun', '2024-06-01', '2024-06-30'],
      ['all', '2024-04-01', '2024-06-30'],
    ]) {
      for (const ext of ['csv', 'xlsx'] as const) {
        const out = file(`month-${name}.${ext}`);
        const res = await run(['wallet', 'statement', c, '--from', from!, '--to', to!, '--out', out], { env: sb.env });
        expect(res.code, res.stderr).toBe(0);
        const got =
          ext === 'csv'
            ? csvRows(out).map((r) => r.id!)
            : sheetRows(readXlsx(out).Statement as Sheet).map((r) => String(r.id!.v));
        (ids[name!] ??= { csv: [], xlsx: [] })[ext] = got;
      }
    }
    for (const v of Object.values(ids)) expect(v.xlsx).toEqual(v.csv);
    expect([...ids.apr!.csv, ...ids.may!.csv, ...ids.jun!.csv].sort()).toEqual([...ids.all!.csv].sort());
    expect(ids.apr!.csv).toHaveLength(3);
    expect(ids.may!.csv).toHaveLength(42);
    expect(ids.jun!.csv).toHaveLength(1);
  });

  it('a long statement, with full collections along the way: every row once, in order, and no warning line', async () => {
    const c = await seedStatement({ wallet_entries: 12_000 });
    const [csv, xlsx] = [file('long.csv'), file('long.xlsx')];
    for (const out of [csv, xlsx]) {
      const res = await run(['wallet', 'statement', c, '--tz', 'Asia/Kolkata', '--out', out], { env: sb.env });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toMatch(new RegExp(`(^|\\n)wrote 12000 rows to .*\\n${c}: 12000 rows, opening [^\\n]*\\n$`));
      expect(res.stderr).not.toMatch(/warning/i);
    }
    const rows = sheetRows(readXlsx(xlsx).Statement as Sheet);
    expect(rows.map((r) => String(r.id!.v))).toEqual(csvRows(csv).map((r) => r.id));
    for (let i = 1; i < rows.length; i++) {
      const [newer, older] = [rows[i - 1]!, rows[i]!];
      expect(Number(newer.balance!.v)).toBe(
        Number(older.balance!.v) + Number(newer.credit!.v) - Number(newer.debit!.v),
      );
    }
  }, 60_000);

  it('orders workbook: amounts typed, text never a formula, Summary totals equal the sum of rows', async () => {
    await sb.admin('POST', '/seed', { orders: 30 });
    expect((await sb.api('POST', '/orders', { amount: 1200, currency: 'INR', receipt: '=1+2' })).status).toBe(200);
    const out = file('orders.xlsx');
    const res = await run(['orders', 'list', '--out', out], { env: sb.env });
    expect(res.code, res.stderr).toBe(0);
    const book = readXlsx(out);
    const rows = sheetRows(book.Orders as Sheet);
    expect(rows.length).toBeGreaterThanOrEqual(30);
    const total = (book.Summary as Sheet).rows.find((r) => r[0]!.v === 'amount')!;
    expect(total[3]!.v).toBe(rows.reduce((s, r) => s + Number(r.amount!.v), 0));
    expect(rows.every((r) => r.amount!.t === 'int' && r.created_at_local!.t === 'date')).toBe(true);
    expect(rows.find((r) => r.receipt!.v === '=1+2')!.receipt!.d).toBe('s');
  });
});
