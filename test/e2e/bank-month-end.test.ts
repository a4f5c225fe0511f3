import { join } from 'node:path';
import { DateTime } from 'luxon';
import { beforeAll, describe, expect, it } from 'vitest';
import { advanceClockTo, paidAtCheckout, run, sandboxForFile, scratchDir } from './harness';
import { csvRows, readXlsx, sheetRows } from './exports-workbook';
import type { Sheet } from './exports-workbook';

// The month-end story: a month of payments and refunds in the sandbox, its clock moved past the month,
// the sandbox's own bank statement in each format tied out; each quirk fails the run naming only itself.
// A fixed month on the sandbox clock (July 2031: it starts on a Tuesday and ends on a Thursday).
const ZONE = 'Asia/Kolkata';
const MONTH = '2031-07';
const dir = scratchDir('payctl-bank-');
const sb = sandboxForFile();
const start = DateTime.fromISO(`${MONTH}-01T00:30:00`, { zone: ZONE });
let settlements: Array<{ id: string; utr: string; amount: number; created_at: number }> = [];

const advanceTo = (to: DateTime) => advanceClockTo(sb, to);
const pay = (amount: number, receipt: string) => paidAtCheckout(sb, amount, receipt);

const payctl = (args: string[]) => run(args, { env: sb.env, timeoutMs: 60_000 });

beforeAll(async () => {
  // The last evening of June settles on 2 July, inside the month.
  await advanceTo(start.minus({ hours: 6 }));
  await pay(77_777, 'eve');
  await advanceTo(start);
  for (let d = 1; d <= 26; d++) {
    const a = await pay(10_000 + ((d * 7919) % 900_000), `d${d}-a`);
    await pay(2_525 + ((d * 104_729) % 90_000), `d${d}-b`);
    if (d % 3 === 0) {
      const res = await sb.api('POST', `/payments/${a}/refund`, { amount: 1_000 + d });
      expect(res.status).toBe(200);
    }
    await sb.admin('POST', '/clock/advance', { seconds: 86_400 });
  }
  await advanceTo(start.plus({ months: 1, days: 10 }));
  const listed = await run(
    ['-o', 'json', 'settlements', 'list', '--from', `${MONTH}-01`, '--to', `${MONTH}-31`, '--tz', ZONE],
    {
      env: sb.env,
    },
  );
  expect(listed.code, listed.stderr).toBe(0);
  settlements = JSON.parse(listed.stdout);
}, 180_000);

/** The finding names `settlements match` prints, one per quirk. */
const NAMES = {
  missing: 'not in the bank:',
  extra: 'unexplained credit:',
  amount: 'amount differs by',
  truncate: 'cut UTR:',
} as const;

async function statement(format: string, name: string, quirks?: string) {
  const out = join(dir, name);
  const args = ['sandbox', 'bank-statement', '--month', MONTH, '--format', format, '--out', out];
  const res = await payctl(quirks ? [...args, '--quirks', quirks] : args);
  expect(res.code, res.stderr).toBe(0);
  return out;
}

const cells = (sheet: Sheet) => sheet.rows.map((r) => r.map((c) => c.v));
const values = (sheet: Sheet) =>
  sheetRows(sheet).map((r) => Object.fromEntries(Object.entries(r).map(([k, c]) => [k, c.v])));

describe("the month's bank statement tied out to its settlements", () => {
  it.each([
    ['mt940', 'july.sta'],
    ['camt053', 'july.xml'],
    ['csv', 'july.csv'],
  ])(
    'the sandbox statement as %s ties out (exit 0), in a workbook an auditor accepts',
    async (format, name) => {
      expect(settlements.length).toBe(27); // 2 July (the eve's) to 28 July (the 26th's payments)
      const file = await statement(format, name);
      const book = join(dir, `${format}.xlsx`);
      const res = await payctl(['settlements', 'match', '--bank', file, '--month', MONTH, '--tz', ZONE, '--out', book]);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toContain(`settlements ${MONTH}: 27,`);
      expect(res.stderr).toMatch(/in the bank: 27 \(/);
      expect(res.stderr).toContain('ties out');

      const wb = readXlsx(book) as unknown as { sheets: string[]; Matched: Sheet; Unmatched: Sheet; Summary: Sheet };
      expect(wb.sheets).toEqual(['Matched', 'Unmatched', 'Summary']);
      const matched = values(wb.Matched);
      expect(matched).toHaveLength(27);
      expect(new Set(matched.map((r) => r.settlement_id))).toEqual(new Set(settlements.map((s) => s.id)));
      for (const row of matched) {
        const s = settlements.find((x) => x.id === row.settlement_id)!;
        expect(row.amount).toBe(s.amount);
        expect(row.bank_amount).toBe(s.amount);
      }
      // Typed cells: paise as integers, rupees in the ₹ format, dates as dates.
      const first = wb.Matched.rows[1]!;
      const header = cells(wb.Matched)[0]!;
      const at = (h: string) => first[header.indexOf(h)]!;
      expect(at('amount').t).toBe('int');
      expect(at('amount_display').f).toContain('₹');
      expect(at('settled_at').t).toBe('date');
      expect(at('bank_date').t).toBe('date');
      // Settlements made on a Saturday or Sunday reach the bank on the Monday.
      const weekend = settlements.filter((s) => DateTime.fromSeconds(s.created_at, { zone: ZONE }).weekday >= 6);
      expect(weekend.length).toBeGreaterThan(0);
      for (const s of weekend) {
        const row = matched.find((r) => r.settlement_id === s.id)!;
        expect(Number(row.days_apart)).toBeGreaterThan(0);
      }
      expect(values(wb.Unmatched)).toHaveLength(0);
      const summary = cells(wb.Summary);
      expect(summary.find((r) => r[1] === 'ties out')?.[2]).toBe('yes');
    },
    60_000,
  );

  it.each([
    ['missing', 'mt940', 'settlement'],
    ['extra', 'camt053', 'bank'],
    ['amount', 'csv', 'both'],
    ['truncate', 'mt940', 'bank'],
  ] as const)(
    'the quirk %s (%s) fails the run (exit 1) naming exactly that finding',
    async (quirk, format, side) => {
      const file = await statement(format, `quirk-${quirk}.${format}`, quirk);
      const out = join(dir, `quirk-${quirk}.csv`);
      const res = await payctl(['settlements', 'match', '--bank', file, '--month', MONTH, '--tz', ZONE, '--out', out]);
      expect(res.code, res.stderr).toBe(1);
      expect(res.stderr).toContain('DOES NOT TIE OUT');
      expect(res.stderr).toContain(NAMES[quirk]);
      for (const [other, name] of Object.entries(NAMES)) if (other !== quirk) expect(res.stderr).not.toContain(name);
      const rows = csvRows(out).filter((r) => r.status === 'finding');
      expect(rows.length).toBeGreaterThan(0);
      expect(new Set(rows.map((r) => r.finding))).toEqual(new Set([NAMES[quirk].replace(/( by)?:?$/, '')]));
      expect(rows.some((r) => r.side === side)).toBe(true);
      if (quirk === 'amount') expect(rows[0]!.difference).toBe('-1');
    },
    60_000,
  );
});
