import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { afterAll, describe, expect, it } from 'vitest';
import { checkOutTarget, writeAtomically } from '../../../src/output/atomic-file';
import { fileFormat } from '../../../src/output/export';
import { checkFields } from '../../../src/output/known-fields';
import { renderMany } from '../../../src/output/render';
import { reversed } from '../../../src/output/spool';
import { isoTime, localTime, wallClockDate } from '../../../src/output/time';
import { ExportSummary, summaryLines } from '../../../src/output/summary';

const dir = mkdtempSync(join(tmpdir(), 'payctl-unit-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function csvOf(
  kind: Parameters<typeof renderMany>[0],
  rows: unknown[],
  extra: { fields?: string[]; tagged?: boolean } = {},
) {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d) => (text += d));
  await renderMany(kind, rows, { format: 'csv', tz: 'Asia/Kolkata', out, ...extra });
  return text;
}

describe('--out format', () => {
  it.each([
    ['x.csv', 'json', 'default', 'csv'],
    ['x.CSV', 'json', 'env', 'csv'],
    ['x.json', 'table', 'default', 'json'],
    ['x.ndjson', 'json', 'default', 'ndjson'],
    ['x.jsonl', 'json', 'default', 'ndjson'],
    ['x.xlsx', 'json', 'default', 'xlsx'],
    ['x.csv', 'csv', 'flag', 'csv'],
    ['report.txt', 'csv', 'flag', 'csv'],
  ] as const)('%s with -o %s (%s) is %s', (path, format, source, want) =>
    expect(fileFormat(path, format, source)).toBe(want),
  );

  it.each([
    ['x.xlsx', 'csv', 'flag', /xlsx by its extension but -o says csv/],
    ['x.csv', 'json', 'flag', /csv by its extension but -o says json/],
    ['report.txt', 'json', 'default', /format follows the extension/],
  ] as const)('%s with -o %s (%s) is refused', (path, format, source, msg) => {
    expect(() => fileFormat(path, format, source)).toThrow(msg);
  });
});

describe('--fields', () => {
  it('knows every column it can write, derived ones and object keys included', () => {
    expect(() =>
      checkFields('order', ['id', 'amount_display', 'created_at_local', 'created_at_iso', 'notes.reason', 'currency']),
    ).not.toThrow();
    expect(() =>
      checkFields('customer_transaction', ['customer_id', 'balance_display', 'credit', 'debit']),
    ).not.toThrow();
  });

  it('refuses a typo with a suggestion', () => {
    expect(() => checkFields('payment', ['id', 'amout'])).toThrow(/no column "amout" \(did you mean amount\?\)/);
    expect(() => checkFields('payment', ['created_at_locl'])).toThrow(/did you mean created_at_local\?/);
    expect(() => checkFields('order', ['status_display'])).toThrow(/no column "status_display"/);
  });

  it('derived columns are computed, in CSV as in JSON', async () => {
    const order = { id: 'order_1', amount: 250000, currency: 'INR', created_at: 1714501799 };
    const [row] = parse(await csvOf('order', [order], { fields: ['id', 'amount_display', 'created_at_local'] }), {
      columns: true,
    }) as Array<Record<string, string>>;
    expect(row).toEqual({ id: 'order_1', amount_display: '₹2,500.00', created_at_local: '2024-04-30 23:59:59' });
  });
});

describe('CSV', () => {
  it('writes the header with no rows, the statement of a customer list with customer_id', async () => {
    expect(await csvOf('payment', [])).toMatch(
      /^id,status,amount,amount_display,.*,created_at,created_at_iso,created_at_local\n$/,
    );
    expect(await csvOf('customer_transaction', [], { tagged: true })).toMatch(/^customer_id,created_at,/);
    expect(await csvOf('order', [], { fields: ['id', 'amount'] })).toBe('id,amount\n');
  });

  it('writes a number as String gives it, whatever the number (fractions, large, not finite)', async () => {
    const values = fc.sample(fc.double(), { numRuns: 500, seed: 7 });
    values.push(1.63, -0, 2 ** 53 + 2, Infinity, NaN);
    const text = await csvOf(
      'order',
      values.map((amount) => ({ amount })),
      { fields: ['amount'] },
    );
    expect(text).toBe(`amount\n${values.map((v) => `${String(v)}\n`).join('')}`);
  });
});

describe('summary', () => {
  // Newest first, three entries in the same second: opening is before the oldest, closing after the newest.
  const entries = [
    { created_at: 100, credit: 0, debit: 30, balance: 270 },
    { created_at: 100, credit: 100, debit: 0, balance: 300 },
    { created_at: 100, credit: 200, debit: 0, balance: 200 },
  ];
  it.each([
    ['newest first', entries, false],
    ['oldest first', [...entries].reverse(), true],
  ])('%s: opening, credits, debits, closing', (_, rows, oldestFirst) => {
    const s = new ExportSummary('customer_transaction', {}, { tz: 'UTC', chosen: false });
    s.oldestFirst = oldestFirst;
    for (const r of rows) s.note(r, 'cust_A');
    expect(s.customers.get('cust_A')).toMatchObject({ rows: 3, opening: 0, credits: 300, debits: 30, closing: 270 });
    expect(summaryLines(s)).toEqual(['cust_A: 3 rows, opening ₹0.00, credits ₹3.00, debits ₹0.30, closing ₹2.70']);
  });

  it('totals money per currency, each figure in its minor unit by name', () => {
    const s = new ExportSummary('payment', {}, { tz: 'UTC', chosen: true });
    s.note({ amount: 100, amount_refunded: 0, currency: 'INR' });
    s.note({ amount: 250, amount_refunded: 50, currency: 'INR' });
    s.note({ amount: 999, currency: 'USD' });
    const line = summaryLines(s)[0]!;
    expect(line).not.toMatch(/\(\d+ (INR|USD)\)/);
    expect(line).toBe(
      'totals: amount INR ₹3.50 (350 paise), amount_refunded INR ₹0.50 (50 paise), amount USD $9.99 (999 cents)',
    );
  });
});

describe('reversed spool', () => {
  it('gives every row back in reverse, multi-byte text across block edges included, and leaves nothing behind', async () => {
    const before = readdirSync(tmpdir()).filter((f) => f.startsWith('payctl-spool-')).length;
    async function* rows() {
      for (let i = 0; i < 5000; i++) yield { i, text: `₹ नमस्ते ${'x'.repeat(i % 97)}` };
    }
    const back: Array<{ i: number; text: string }> = [];
    for await (const r of reversed(rows())) back.push(r as { i: number; text: string });
    expect(back.map((r) => r.i)).toEqual(Array.from({ length: 5000 }, (_, i) => 4999 - i));
    expect(back[0]!.text).toBe(`₹ नमस्ते ${'x'.repeat(4999 % 97)}`);
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith('payctl-spool-')).length).toBe(before);
  });
});

describe('atomic --out', () => {
  it('writes 0600 and nothing else', async () => {
    const target = join(dir, 'ok.csv');
    await writeAtomically(target, async (out) => void out.write('a\n'));
    expect(readFileSync(target, 'utf8')).toBe('a\n');
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['ok.csv']);
  });

  it('a failure mid-write names the target and leaves no file', async () => {
    const sub = mkdtempSync(join(dir, 'fail-'));
    const target = join(sub, 'x.csv');
    const err = Object.assign(new Error(`EFBIG: file too large, write '${sub}/.x.csv.1.partial'`), { code: 'EFBIG' });
    await expect(writeAtomically(target, async () => Promise.reject(err))).rejects.toThrow(
      `cannot write --out ${target}: file too large for this file system or limit (EFBIG); no file was written`,
    );
    expect(readdirSync(sub)).toEqual([]);
  });

  it('the target checked before anything is sent: missing, unwritable, a directory', async () => {
    await expect(checkOutTarget(join(dir, 'nope', 'x.csv'))).rejects.toThrow(/the directory .*nope does not exist/);
    const dirTarget = join(dir, 'adir');
    mkdirSync(dirTarget);
    await expect(checkOutTarget(dirTarget)).rejects.toThrow(/is a directory/);
    if (process.getuid?.() !== 0) {
      const ro = mkdtempSync(join(dir, 'ro-'));
      chmodSync(ro, 0o500);
      await expect(checkOutTarget(join(ro, 'x.csv'))).rejects.toThrow(/is not writable/);
    }
  });
});

describe('local times', () => {
  it.each([
    ['2024-04-30T18:29:59Z', 'Asia/Kolkata', '2024-04-30 23:59:59', '2024-04-30T23:59:59+05:30'],
    ['2024-11-03T05:30:00Z', 'America/New_York', '2024-11-03 01:30:00', '2024-11-03T01:30:00-04:00'],
    ['2024-11-03T06:30:00Z', 'America/New_York', '2024-11-03 01:30:00', '2024-11-03T01:30:00-05:00'],
    ['2024-03-10T07:00:00Z', 'America/New_York', '2024-03-10 03:00:00', '2024-03-10T03:00:00-04:00'],
  ])('%s in %s is %s', (utc, tz, local, iso) => {
    const s = Date.parse(utc) / 1000;
    expect(localTime(s, tz)).toBe(local);
    expect(isoTime(s, tz)).toBe(iso);
    expect(wallClockDate(s, tz)!.toISOString().replace('T', ' ').slice(0, 19)).toBe(local);
  });
});

describe('fast zone formatting', () => {
  const zones = [
    'UTC',
    'Asia/Kolkata',
    'America/New_York',
    'Europe/London',
    'Australia/Lord_Howe',
    'Asia/Kathmandu',
    'America/St_Johns',
    'Pacific/Chatham',
    'Africa/Monrovia',
    'Etc/GMT+5',
  ];
  it('equals luxon for any time and zone, DST transitions included', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800 }), fc.constantFrom(...zones), (s, tz) => {
        const dt = DateTime.fromSeconds(s, { zone: tz });
        expect(isoTime(s, tz)).toBe(dt.toISO({ suppressMilliseconds: true }));
        expect(localTime(s, tz)).toBe(dt.toFormat('yyyy-LL-dd HH:mm:ss'));
      }),
      { numRuns: 3000 },
    );
    // Every second around New York's and Lord Howe's 2024 transitions.
    for (const [tz, iso] of [
      ['America/New_York', '2024-11-03T06:00:00Z'],
      ['America/New_York', '2024-03-10T07:00:00Z'],
      ['Australia/Lord_Howe', '2024-04-06T15:00:00Z'],
    ] as const) {
      const t = Date.parse(iso) / 1000;
      const near = Array.from({ length: 11 }, (_, i) => t - 5 + i); // the transition's own second and its neighbours
      for (const s of [...near, ...Array.from({ length: 286 }, (_, i) => t - 1000 + 7 * i), t - 3600, t + 3600])
        expect(isoTime(s, tz)).toBe(DateTime.fromSeconds(s, { zone: tz }).toISO({ suppressMilliseconds: true }));
    }
  }, 30_000);
});
