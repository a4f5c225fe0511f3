import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { runJson, scratchDir, sandboxForFile } from './harness';
import { typed } from './shell';
import { readXlsx, sheetRows } from './exports-workbook';
import type { Sheet } from './exports-workbook';

const ist = (local: string) => Math.floor(DateTime.fromISO(local, { zone: 'Asia/Kolkata' }).toSeconds());

const dir = scratchDir('payctl-finance-');
const sb = sandboxForFile();

/** One shell command line, as the finance person types it (stdout redirected by the shell). */
const sh = (line: string) => typed(line, sb.env, dir);

describe("a finance person's first hour", () => {
  it('a month in Asia/Kolkata to CSV and xlsx: opening + credits - debits = closing, from the files alone', async () => {
    // A wallet with entries across October in India, and one on each side of the month's edges.
    const inside = [
      '2026-10-01T00:00:00',
      '2026-10-01T09:15:00',
      '2026-10-03T12:00:00',
      '2026-10-09T18:45:00',
      '2026-10-15T05:30:00',
      '2026-10-15T05:30:00',
      '2026-10-22T23:00:00',
      '2026-10-31T23:59:59',
    ].map(ist);
    const outside = [ist('2026-09-30T23:59:59'), ist('2026-09-12T10:00:00'), ist('2026-11-01T00:00:00')];
    const seeded = await sb.admin<{ customer_ids: string[] }>('POST', '/seed', {
      wallet_entry_times: [...inside, ...outside],
    });
    const cust = seeded.customer_ids.at(-1)!;

    const csv = await sh(
      `payctl wallet statement ${cust} --from 2026-10-01 --to 2026-10-31 --tz Asia/Kolkata -o csv > oct.csv`,
    );
    expect(csv.code, csv.stderr).toBe(0);
    const xlsx = await sh(
      `payctl wallet statement ${cust} --from 2026-10-01 --to 2026-10-31 --tz Asia/Kolkata --out oct.xlsx`,
    );
    expect(xlsx.code, xlsx.stderr).toBe(0);

    // The CSV alone: newest first, each row's balance after it.
    const rows = parse(readFileSync(join(dir, 'oct.csv'), 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(inside.length);
    expect(rows.at(-1)!.created_at_local).toBe('2026-10-01 00:00:00');
    expect(rows[0]!.created_at_local).toBe('2026-10-31 23:59:59');
    const n = (v: string | undefined) => Number(v ?? 0);
    const oldest = rows.at(-1)!;
    const opening = n(oldest.balance) - n(oldest.credit) + n(oldest.debit);
    const closing = n(rows[0]!.balance);
    const credits = rows.reduce((s, r) => s + n(r.credit), 0);
    const debits = rows.reduce((s, r) => s + n(r.debit), 0);
    expect(opening + credits - debits).toBe(closing);

    // The opening is what the wallet held at the end of 30 September, as the whole statement shows.
    const whole = await runJson<Array<{ created_at: number; balance: number }>>(sb, ['wallet', 'statement', cust]);
    const lastOfSeptember = whole.data!.find((e) => e.created_at === outside[0]);
    expect(lastOfSeptember?.balance).toBe(opening);

    // The stderr summary says the same, in rupees, naming the zone.
    const rupees = (p: number) => `₹${(p / 100).toLocaleString('en-IN', { minimumFractionDigits: 2 })}`;
    expect(csv.stderr).toContain('zone Asia/Kolkata');
    expect(csv.stderr).toContain(
      `${cust}: ${inside.length} rows, opening ${rupees(opening)}, credits ${rupees(credits)}, debits ${rupees(debits)}, closing ${rupees(closing)}`,
    );

    // The workbook: the same rows, and its Summary sheet's ledger reconciles in rupees.
    const book = readXlsx(join(dir, 'oct.xlsx')) as Record<string, Sheet> & { sheets: string[] };
    expect(sheetRows(book.Statement!)).toHaveLength(inside.length);
    const summary = book.Summary!.rows.map((r) => r.map((c) => c.v));
    const ledger = summary[summary.findIndex((r) => r[0] === 'customer_id') + 1]!;
    expect(ledger).toEqual([cust, inside.length, opening / 100, credits / 100, debits / 100, closing / 100]);
    const [, rowsHere, open, cr, dr, close] = ledger as number[];
    expect(rowsHere).toBe(inside.length);
    expect(Math.round((open! + cr! - dr!) * 100)).toBe(Math.round(close! * 100));
  });

  it('a month with no entries: the opening and closing balances, equal and said so, on stderr and in the workbook', async () => {
    // Entries in September and November only: October's statement has no rows, yet the wallet held money.
    const times = [ist('2026-09-10T10:00:00'), ist('2026-09-30T23:59:59'), ist('2026-11-02T08:00:00')];
    const cust = (
      await sb.admin<{ customer_ids: string[] }>('POST', '/seed', { wallet_entry_times: times })
    ).customer_ids.at(-1)!;
    const whole = await runJson<Array<{ created_at: number; balance: number }>>(sb, ['wallet', 'statement', cust]);
    const held = whole.data!.find((e) => e.created_at === times[1])!.balance;
    expect(held).toBeGreaterThan(0);
    const rupees = (p: number) => `₹${(p / 100).toLocaleString('en-IN', { minimumFractionDigits: 2 })}`;

    const csv = await sh(
      `payctl wallet statement ${cust} --from 2026-10-01 --to 2026-10-31 --tz Asia/Kolkata -o csv > empty.csv`,
    );
    expect(csv.code, csv.stderr).toBe(0);
    expect(readFileSync(join(dir, 'empty.csv'), 'utf8').trim().split('\n')).toHaveLength(1); // the header only
    expect(csv.stderr).toContain(
      `${cust}: 0 rows, opening ${rupees(held)}, credits ₹0.00, debits ₹0.00, closing ${rupees(held)} ` +
        '(no entries in the period: the balance did not change)',
    );

    const xlsx = await sh(
      `payctl wallet statement ${cust} --from 2026-10-01 --to 2026-10-31 --tz Asia/Kolkata --out empty.xlsx`,
    );
    expect(xlsx.code, xlsx.stderr).toBe(0);
    const book = readXlsx(join(dir, 'empty.xlsx')) as Record<string, Sheet> & { sheets: string[] };
    const summary = book.Summary!.rows.map((r) => r.map((c) => c.v));
    const ledger = summary[summary.findIndex((r) => r[0] === 'customer_id') + 1]!;
    expect(ledger).toEqual([
      cust,
      0,
      held / 100,
      0,
      0,
      held / 100,
      'no entries in the period: the balance did not change',
    ]);

    // Before the wallet's first entry it held nothing: opening and closing ₹0.00.
    const before = await sh(
      `payctl wallet statement ${cust} --from 2026-08-01 --to 2026-08-31 --tz Asia/Kolkata -o csv > aug.csv`,
    );
    expect(before.stderr).toContain(
      `${cust}: 0 rows, opening ₹0.00, credits ₹0.00, debits ₹0.00, closing ₹0.00 (no entries`,
    );
  });
});
