import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { beforeAll, describe, expect, it } from 'vitest';
import { addProfile, advanceClockTo, paidAtCheckout, runJson, sandboxForFile, scratchDir } from './harness';
import { csvRows, readXlsx, sheetRows } from './exports-workbook';
import { typed } from './shell';
import type { Sheet } from './exports-workbook';

const ZONE = 'Asia/Kolkata';
const dir = scratchDir('payctl-settle-');
const sb = sandboxForFile();

/** One shell command line, as the finance person types it; stdout goes where the line sends it. */
const sh = (line: string, env: Record<string, string> = sb.env) => typed(line, env, dir);

/** The fee the service charges at 2% plus 18% GST on it, each rounded half up to the paisa. */
const feeOf = (amount: number) => {
  const charge = Math.round(amount * 0.02);
  const tax = Math.round(charge * 0.18);
  return { fee: charge + tax, tax };
};

interface Made {
  id: string;
  amount: number;
  /** The day (in India) it was captured or refunded. */
  day: string;
}
const payments: Made[] = [];
const refunds: Made[] = [];
let month: DateTime;

const advanceTo = (to: DateTime) => advanceClockTo(sb, to);

async function pay(amount: number, receipt: string, day: DateTime) {
  payments.push({ id: await paidAtCheckout(sb, amount, receipt), amount, day: day.toISODate()! });
}

// A month of sales in India: two captures a day, a partial refund every third day, and one capture on
// the last afternoon of the month before (it settles inside the month).
beforeAll(async () => {
  const { now } = await sb.admin<{ now: number }>('GET', '/clock');
  month = DateTime.fromSeconds(now, { zone: ZONE }).startOf('month').plus({ months: 1 });
  if (month.minus({ hours: 12 }).toSeconds() < now) month = month.plus({ months: 1 });
  const eve = month.minus({ hours: 12 });
  await advanceTo(eve);
  await pay(77_777, 'eve', eve);
  await advanceTo(month.plus({ minutes: 30 }));
  for (let d = 1; d <= month.daysInMonth!; d++) {
    const day = month.set({ day: d });
    await pay(10_000 + ((d * 7919) % 900_000), `d${d}-a`, day);
    await pay(2_525 + ((d * 104_729) % 90_000), `d${d}-b`, day);
    if (d % 3 === 0) {
      const target = payments.at(-3)!;
      const amount = Math.floor(target.amount / 3);
      const res = await sb.api<{ id: string }>('POST', `/payments/${target.id}/refund`, { amount });
      expect(res.status).toBe(200);
      refunds.push({ id: res.body.id, amount, day: day.toISODate()! });
    }
    await sb.admin('POST', '/clock/advance', { seconds: 86_400 });
  }
  await advanceTo(month.plus({ months: 1, days: 5 }));
}, 120_000);

describe("a month's settlements reconciled, as finance does it", () => {
  it('ties every deposit to its payments, refunds, fees and tax, in CSV and xlsx, and names the unsettled', async () => {
    const label = month.toFormat('yyyy-LL');
    const last = month.endOf('month');
    // Settled within the month: what was captured or refunded up to two days before its end.
    const settledBy = last.minus({ days: 2 }).toISODate()!;
    const settledPayments = payments.filter((p) => p.day <= settledBy);
    const unsettled = payments.filter((p) => p.day > settledBy);
    const settledRefunds = refunds.filter((r) => r.day <= settledBy);
    expect(unsettled).toHaveLength(4);

    const csv = await sh(`payctl settlements recon --month ${label} --tz ${ZONE} -o csv > recon.csv`);
    expect(csv.code, csv.stderr).toBe(0);
    const finance = await addProfile(sb, 'finance');
    const xlsx = await sh(
      `payctl -p finance settlements recon --month ${label} --tz ${ZONE} --out recon.xlsx`,
      finance,
    );
    expect(xlsx.code, xlsx.stderr).toBe(0);

    // The deposits as the service lists them: every page, one a day from the 2nd (the eve's capture).
    const listed = await runJson<Array<{ id: string; amount: number; fees: number; tax: number; utr: string }>>(sb, [
      'settlements',
      'list',
      '--from',
      month.toISODate()!,
      '--to',
      last.toISODate()!,
      '--tz',
      ZONE,
    ]);
    expect(listed.code, listed.stderr).toBe(0);
    const deposits = listed.data!;
    expect(deposits).toHaveLength(month.daysInMonth! - 1);
    expect(new Set(deposits.map((s) => s.utr)).size).toBe(deposits.length);

    // The CSV alone: a row per settled payment and refund, and the unsettled captures marked so.
    const rows = csvRows(join(dir, 'recon.csv'));
    const settled = rows.filter((r) => r.settled === 'true');
    const settledIds = (type: string) =>
      settled
        .filter((r) => r.type === type)
        .map((r) => r.entity_id)
        .sort();
    expect(settledIds('payment')).toEqual(settledPayments.map((p) => p.id).sort());
    expect(settledIds('refund')).toEqual(settledRefunds.map((r) => r.id).sort());
    const open = rows.filter((r) => r.settled === 'false');
    expect(open.map((r) => r.entity_id).sort()).toEqual(unsettled.map((p) => p.id).sort());
    expect(open.every((r) => r.settlement_id === '' && r.type === 'payment')).toBe(true);
    for (const r of rows.filter((row) => row.type === 'payment')) {
      const { fee, tax } = feeOf(Number(r.amount));
      expect([Number(r.fee), Number(r.tax), Number(r.credit)]).toEqual([fee, tax, Number(r.amount) - fee]);
    }
    for (const r of settled) {
      expect(r.settled_at_local).toMatch(new RegExp(`^${label}-\\d\\d 11:00:00$`));
    }
    // Each deposit is its rows' credits less debits; its fees and tax, theirs.
    for (const s of deposits) {
      const mine = settled.filter((r) => r.settlement_id === s.id);
      expect(mine.every((r) => r.settlement_utr === s.utr)).toBe(true);
      const sum = (k: string) => mine.reduce((t, r) => t + Number(r[k]), 0);
      expect([sum('credit') - sum('debit'), sum('fee'), sum('tax')]).toEqual([s.amount, s.fees, s.tax]);
    }
    const gross = settledPayments.reduce((t, p) => t + p.amount - feeOf(p.amount).fee, 0);
    const back = settledRefunds.reduce((t, r) => t + r.amount, 0);
    expect(deposits.reduce((t, s) => t + s.amount, 0)).toBe(gross - back);

    // `payctl api … --all` walks the same report by offset, and drops no row.
    const raw = await runJson<unknown[]>(sb, [
      'api',
      'GET',
      '/settlements/recon/combined',
      '-F',
      `year=${month.year}`,
      '-F',
      `month=${month.month}`,
      '--all',
    ]);
    expect(raw.code, raw.stderr).toBe(0);
    expect(raw.data).toHaveLength(settled.length);

    // The summary on stderr: the period's zone, every settlement tying out, the unsettled named.
    expect(csv.stderr).toContain(`period ${label} (settlement days in Asia/Kolkata`);
    expect(csv.stderr.match(/: ties out$/gm)).toHaveLength(deposits.length);
    expect(csv.stderr).not.toContain('DOES NOT TIE OUT');
    const unsettledGross = unsettled.reduce((t, p) => t + p.amount, 0);
    expect(csv.stderr).toContain(`unsettled at the period's end: 4 captured payments, ₹`);
    expect(csv.stderr).toContain(`(${unsettledGross} paise) gross`);

    // The workbook, read by a reader payctl did not write: the same rows, typed cells.
    const book = readXlsx(join(dir, 'recon.xlsx')) as Record<string, Sheet> & { sheets: string[] };
    expect(book.sheets).toEqual(['Reconciliation', 'Summary']);
    const cells = sheetRows(book.Reconciliation!);
    expect(cells).toHaveLength(rows.length);
    for (const r of cells) {
      for (const k of ['amount', 'credit', 'debit']) expect(r[k]!.t).toBe('int');
      expect(r.credit_display!.f).toContain('₹');
      expect(Number(r.credit_display!.v)).toBeCloseTo(Number(r.credit!.v) / 100, 6);
      expect(r.created_at_local!.t).toBe('date');
      if (r.settled!.v === true) expect(r.settled_at_local!.t).toBe('date');
    }
    const summary = book.Summary!.rows;
    const head = summary.findIndex((r) => r[0]!.v === 'settlement_id');
    const names = summary[head]!.map((c) => c.v);
    expect(names).toEqual([
      'settlement_id',
      'utr',
      'settled_at',
      'payments',
      'gross_payments',
      'fees',
      'tax',
      'refunds',
      'credits',
      'debits',
      'computed_net',
      'settlement_amount',
      'agrees',
    ]);
    const table = summary.slice(head + 1).map((r) => Object.fromEntries(names.map((n, i) => [n, r[i]!])));
    const bySettlement = table.filter((r) => r.settlement_id!.v !== 'unsettled');
    expect(bySettlement.map((r) => r.settlement_id!.v).sort()).toEqual(deposits.map((s) => s.id).sort());
    for (const r of bySettlement) {
      const s = deposits.find((d) => d.id === r.settlement_id!.v)!;
      expect(r.agrees!.v).toBe('yes');
      expect(r.settled_at!.t).toBe('date');
      expect(r.settlement_amount!.f).toContain('₹');
      expect(Math.round(Number(r.settlement_amount!.v) * 100)).toBe(s.amount);
      expect(Math.round(Number(r.computed_net!.v) * 100)).toBe(s.amount);
      expect(Math.round(Number(r.fees!.v) * 100)).toBe(s.fees);
      expect(Math.round((Number(r.credits!.v) - Number(r.debits!.v)) * 100)).toBe(s.amount);
    }
    const openRow = table.find((r) => r.settlement_id!.v === 'unsettled')!;
    expect([openRow.payments!.v, Math.round(Number(openRow.gross_payments!.v) * 100)]).toEqual([4, unsettledGross]);
  });

  it("the month's payments export carries fee and tax, in both forms, adding up against the deposits", async () => {
    const range = `--from ${month.toISODate()} --to ${month.endOf('month').toISODate()} --tz ${ZONE}`;
    const csv = await sh(`payctl payments list ${range} -o csv > payments.csv`);
    expect(csv.code, csv.stderr).toBe(0);
    const xlsx = await sh(`payctl payments list ${range} --out payments.xlsx`);
    expect(xlsx.code, xlsx.stderr).toBe(0);
    const rows = csvRows(join(dir, 'payments.csv'));
    expect(rows).toHaveLength(payments.length - 1); // the eve's capture is in the month before
    for (const r of rows) {
      const { fee, tax } = feeOf(Number(r.amount));
      expect([Number(r.fee), Number(r.tax)]).toEqual([fee, tax]);
      expect(r.fee_display).toBe(`₹${(fee / 100).toLocaleString('en-IN', { minimumFractionDigits: 2 })}`);
      expect(r.tax_display).toMatch(/^₹\d/);
    }
    const cells = sheetRows((readXlsx(join(dir, 'payments.xlsx')) as Record<string, Sheet>).Payments!);
    expect(cells).toHaveLength(rows.length);
    for (const r of cells) {
      expect([r.fee!.t, r.tax!.t]).toEqual(['int', 'int']);
      expect(r.fee_display!.f).toContain('₹');
      expect(Math.round(Number(r.fee_display!.v) * 100)).toBe(r.fee!.v);
    }
    // The month's fees, less those of captures not yet settled, plus the eve's: the deposits' fees.
    const listed = await runJson<Array<{ fees: number }>>(sb, ['settlements', 'list', ...range.split(' ')]);
    const settledBy = month.endOf('month').minus({ days: 2 }).toISODate()!;
    const open = new Set(payments.filter((p) => p.day > settledBy).map((p) => p.id));
    const fees = rows.filter((r) => !open.has(r.id!)).reduce((t, r) => t + Number(r.fee), 0);
    expect(listed.data!.reduce((t, s) => t + s.fees, 0)).toBe(fees + feeOf(payments[0]!.amount).fee);
  });

  it('a deposit whose rows do not add up is named, the run fails, and no workbook is written', async () => {
    const label = month.toFormat('yyyy-LL');
    const range = ['--from', month.toISODate()!, '--to', month.endOf('month').toISODate()!, '--tz', ZONE];
    const listed = await runJson<Array<{ id: string; amount: number }>>(sb, ['settlements', 'list', ...range]);
    const victim = listed.data![1]!;
    await sb.admin('POST', '/settlements/tamper', { settlement_id: victim.id, amount: victim.amount - 100 });
    const res = await sh(`payctl settlements recon --month ${label} --tz ${ZONE} --out tampered.xlsx`);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(new RegExp(`settlement ${victim.id} \\(UTR \\w+\\) does not tie out`));
    expect(res.stderr).toContain(
      `settlement ₹${((victim.amount - 100) / 100).toLocaleString('en-IN', { minimumFractionDigits: 2 })}`,
    );
    expect(existsSync(join(dir, 'tampered.xlsx'))).toBe(false);
    // Another settlement of the month, alone, still ties out.
    const other = await sh(`payctl settlements recon --settlement ${listed.data![0]!.id} -o json > one.json`);
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).toMatch(/: ties out$/m);
  });
});
