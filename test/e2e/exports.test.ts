import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { apiOrder, BIN, run, runJson, scratchDir, sandboxForFile } from './harness';
import { at, seedStatement as seed } from './exports-workbook';
import { onTerminal } from './pty';
import type { StatementEntry as Entry } from './harness';

const dir = scratchDir('payctl-export-');
const sb = sandboxForFile();

const seedStatement = (body: Parameters<typeof seed>[1]) => seed(sb, body);

/** `wallet statement C` for one whole local day of `tz`: `--from DAY --to DAY --tz TZ --all`. */
const statementOfDay = (c: string, day: string, tz: string) => [
  ...['wallet', 'statement', c, '--from', day, '--to', day],
  ...['--tz', tz, '--all'],
];

/** Oldest first, each balance is the one before it plus credit minus debit. */
function expectRunningBalance(entries: Entry[]) {
  const sorted = [...entries].sort((a, b) => a.created_at - b.created_at);
  for (let i = 1; i < sorted.length; i++) {
    expect(sorted[i]!.balance, `entry ${sorted[i]!.id}`).toBe(
      sorted[i - 1]!.balance + sorted[i]!.credit - sorted[i]!.debit,
    );
  }
}

describe('day boundaries', () => {
  it('Asia/Kolkata: --from/--to DATE holds 23:59:59 and leaves out the next 00:00:00', async () => {
    const late = at('2024-04-30T23:59:59+05:30');
    const midnight = at('2024-05-01T00:00:00+05:30');
    const c = await seedStatement({ wallet_entry_times: [at('2024-04-29T23:59:59+05:30'), late, midnight] });
    const day = await runJson<Entry[]>(sb, statementOfDay(c, '2024-04-30', 'Asia/Kolkata'));
    expect(day.code, day.stderr).toBe(0);
    expect(day.data!.map((e) => e.created_at)).toEqual([late]);
    const next = await runJson<Entry[]>(sb, statementOfDay(c, '2024-05-01', 'Asia/Kolkata'));
    expect(next.data!.map((e) => e.created_at)).toEqual([midnight]);
    const table = await run(['wallet', 'statement', c, '--all', '-o', 'table', '--tz', 'Asia/Kolkata'], {
      env: sb.env,
    });
    expect(table.stdout).toContain('2024-04-30 23:59:59 +05:30');
    expect(table.stdout).toContain('2024-05-01 00:00:00 +05:30');
  });

  it('America/New_York on the 25-hour day DST ends: the whole day, in local time', async () => {
    const start = at('2024-11-03T00:00:00-04:00');
    const late = at('2024-11-03T23:59:59-05:00');
    const next = at('2024-11-04T00:00:00-05:00');
    const c = await seedStatement({ wallet_entry_times: [at('2024-11-02T23:59:59-04:00'), start, late, next] });
    const day = await runJson<Entry[]>(sb, statementOfDay(c, '2024-11-03', 'America/New_York'));
    expect(day.data!.map((e) => e.created_at).sort()).toEqual([start, late]);
    const csv = await run([...statementOfDay(c, '2024-11-03', 'America/New_York'), '-o', 'csv'], { env: sb.env });
    const rows = parse(csv.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => r.created_at_iso).sort()).toEqual([
      '2024-11-03T00:00:00-04:00',
      '2024-11-03T23:59:59-05:00',
    ]);
  });

  it('America/New_York on the 23-hour day DST starts', async () => {
    const late = at('2024-03-10T23:59:59-04:00');
    const next = at('2024-03-11T00:00:00-04:00');
    const c = await seedStatement({ wallet_entry_times: [at('2024-03-10T00:00:00-05:00'), late, next] });
    const day = await runJson<Entry[]>(sb, statementOfDay(c, '2024-03-10', 'America/New_York'));
    expect(day.data!.map((e) => e.created_at)).not.toContain(next);
    expect(day.data).toHaveLength(2);
  });
});

describe('statement export', () => {
  it('20,000 entries to CSV: every row once, the running balance holds, the summary says so', async () => {
    const c = await seedStatement({ wallet_entries: 20_000 });
    const out = join(dir, 'big.csv');
    const res = await run(['wallet', 'statement', c, '--all', '-o', 'csv', '--out', out], {
      env: sb.env,
      timeoutMs: 120_000,
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/wrote 20000 rows to .*big\.csv/);
    const rows = parse(readFileSync(out, 'utf8'), {
      columns: true,
      cast: (v, ctx) => (['created_at', 'credit', 'debit', 'balance'].includes(String(ctx.column)) ? Number(v) : v),
    }) as Entry[];
    expect(rows).toHaveLength(20_000);
    expect(new Set(rows.map((r) => r.id)).size).toBe(20_000);
    expectRunningBalance(rows);
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([]);
  }, 120_000);

  it('several customers: each row carries customer_id, from arguments or --input', async () => {
    const a = await seedStatement({ wallet_entries: 150 });
    const b = await seedStatement({ wallet_entries: 30 });
    const res = await run(['wallet', 'statement', '--input', '-', '-o', 'csv'], {
      env: sb.env,
      input: `customer_id\n${a}\n${b}\n`,
    });
    expect(res.code, res.stderr).toBe(0);
    const rows = parse(res.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(180);
    expect(Object.keys(rows[0]!)[0]).toBe('customer_id');
    expect(rows.filter((r) => r.customer_id === a)).toHaveLength(150);
    expect(rows.filter((r) => r.customer_id === b)).toHaveLength(30);
  });

  it.each([
    ['without --to (the walk pins it)', [] as string[]],
    [
      'with --to in the future (only dropping seen ids holds)',
      ['--to', String(Math.floor(Date.now() / 1000) + 86_400)],
    ],
  ])(
    'rows created during an export do not appear and nothing is skipped: %s',
    async (_, extra) => {
      await sb.admin('POST', '/seed', { orders: 30 }); // captured payments fund the cashback below
      const c = await seedStatement({ wallet_entries: 3000 });
      const child = spawn(process.execPath, [BIN, 'wallet', 'statement', c, '--all', '-o', 'ndjson', ...extra], {
        env: { ...process.env, ...sb.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      const firstChunk = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      child.stdout.on('data', (d) => (text += d));
      await firstChunk;
      // Paused, the pipe fills and payctl waits mid-walk while 250 new entries land on top.
      child.stdout.pause();
      for (let i = 0; i < 250; i++) {
        const r = await sb.api('POST', '/transfers', { customer_id: c, amount: 100, currency: 'INR' });
        expect(r.status).toBe(200);
      }
      child.stdout.resume();
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(0);
      const ids = text
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as Entry).id);
      expect(ids).toHaveLength(3000);
      expect(new Set(ids).size).toBe(3000);
      const all = await runJson<Entry[]>(sb, ['wallet', 'statement', c, '--all']);
      expect(all.data).toHaveLength(3250);
      expect(new Set(ids)).toEqual(new Set(all.data!.slice(250).map((e) => e.id)));
    },
    60_000,
  );

  it('an interrupted export leaves no file under the final name, and no partial file', async () => {
    const c = await seedStatement({ wallet_entries: 20_000 });
    const sub = mkdtempSync(join(dir, 'interrupt-'));
    const out = join(sub, 'statement.csv');
    const child = spawn(process.execPath, [BIN, 'wallet', 'statement', c, '--all', '-o', 'csv', '--out', out], {
      env: { ...process.env, ...sb.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    while (readdirSync(sub).length === 0) await new Promise((r) => setTimeout(r, 5));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(130);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(sub)).toEqual([]);
  }, 60_000);
});

describe('CSV safety', () => {
  it('a formula is guarded and notes with commas, quotes and newlines round-trip through a CSV parser', async () => {
    const note = 'refund, "partial"\nsecond line; 50% off';
    const formula = '=HYPERLINK("http://x.test","click")';
    await apiOrder(sb, { amount: 5000, receipt: 'csv-safety', notes: { memo: note, ref: formula } });
    const res = await run(
      ['orders', 'list', '--receipt', 'csv-safety', '-o', 'csv', '--fields', 'id,receipt,notes.memo,notes.ref,amount'],
      { env: sb.env },
    );
    expect(res.code, res.stderr).toBe(0);
    const rows = parse(res.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(1);
    expect(rows[0]!['notes.memo']).toBe(note);
    expect(rows[0]!['notes.ref']).toBe(`'${formula}`);
    expect(rows[0]!.amount).toBe('5000');
  });

  it('orders list --out writes the export atomically with the covered range', async () => {
    const out = join(dir, 'orders.csv');
    const res = await run(
      ['orders', 'list', '--all', '--from', '2020-01-01', '--to', 'today', '-o', 'csv', '--out', out],
      { env: sb.env },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(
      /wrote \d+ rows to .*orders\.csv \(range 2020-01-01T00:00:00\+05:30 to 20\d\d-\d\d-\d\dT23:59:59\+05:30; rows created 20\d\d-.* to 20\d\d-/,
    );
    const rows = parse(readFileSync(out, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0]!)).toEqual(
      expect.arrayContaining(['id', 'amount', 'amount_display', 'created_at', 'created_at_iso']),
    );
  });

  it('on a terminal, progress shows rows, pages and customers done, and is cleared before the summary', async () => {
    const a = await seedStatement({ wallet_entries: 3_000 });
    const b = await seedStatement({ wallet_entries: 2_000 });
    const out = join(dir, 'progress.csv');
    const t = onTerminal(['wallet', 'statement', a, b, '--all', '-o', 'csv', '--out', out], sb.env);
    await t.waitFor(/\d[\d,]* rows · \d+ pages? · [01]\/2 customers/, 60_000);
    expect(await t.exited).toBe(0);
    expect(t.text()).toMatch(/1\/2 customers/);
    expect(t.text()).toMatch(/5,000 rows · \d+ pages · 2\/2 customers/);
    // The progress line is erased (carriage return, erase line) before the summary is written.
    expect(t.raw()).toMatch(/2\/2 customers\r\x1b\[Kwrote 5000 rows to .*progress\.csv/);
    expect(parse(readFileSync(out, 'utf8'), { columns: true })).toHaveLength(5_000);
    // Without a terminal the same export prints the summary only.
    const plain = await run(['wallet', 'statement', a, b, '--all', '-o', 'csv', '--out', out], {
      env: sb.env,
      timeoutMs: 60_000,
    });
    expect(plain.stderr).not.toMatch(/rows ·/);
  }, 90_000);
});
