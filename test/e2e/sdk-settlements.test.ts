import { readFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { run, sandboxForFile } from './harness';
import { checkout, sdkFor } from './sdk';
import type { Json } from './sdk';

// The official SDK's settlement calls, unchanged, against `payctl sandbox start` charging 2.5%.
const sb = sandboxForFile(['--fee-rate', '2.5']);

const real = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/real/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

/** The fields of a recon row the real combined report carries. */
const RECON_FIELDS = [
  'entity_id',
  'type',
  'debit',
  'credit',
  'amount',
  'currency',
  'fee',
  'tax',
  'on_hold',
  'settled',
  'created_at',
  'settled_at',
  'settlement_id',
  'posted_at',
  'credit_type',
  'description',
  'notes',
  'payment_id',
  'settlement_utr',
  'order_id',
  'order_receipt',
  'method',
  'card_network',
  'card_issuer',
  'card_type',
  'dispute_id',
];

describe('the SDK settles against the sandbox', () => {
  it('settlements.all, fetch and reports answer as the real service, with the arithmetic of its records', async () => {
    const rzp = sdkFor(sb);
    const paid: Json[] = [];
    for (const amount of [100_000, 33_333]) {
      const order = await rzp.orders.create({
        amount,
        currency: 'INR',
        receipt: `sdk-${amount}`,
        payment_capture: true,
      });
      paid.push(await rzp.payments.fetch((await checkout(sb, order.id)).id));
    }
    // 2.5% of ₹1,000.00 is 2500 paise, GST 450 on it; of 33333 paise, 833.325 -> 833, GST 149.94 -> 150.
    expect(paid.map((p) => [p.fee, p.tax])).toEqual([
      [2950, 450],
      [983, 150],
    ]);
    const refund = await rzp.payments.refund(paid[0].id, { amount: 10_000 });

    // Nothing settles before T+2; the CLI's clock advance makes it happen.
    expect((await rzp.settlements.all({ count: 10 })).items).toEqual([]);
    const advanced = await run(['sandbox', 'clock', 'advance', '3d'], { env: sb.env });
    expect(advanced.code, advanced.stderr).toBe(0);

    const all = await rzp.settlements.all({ count: 10, skip: 0 });
    expect(all.entity).toBe('collection');
    expect(all.items).toHaveLength(1);
    const settlement = all.items[0];
    expect(Object.keys(settlement).sort()).toEqual(Object.keys(real('settlement.json')).sort());
    expect(settlement).toMatchObject({
      entity: 'settlement',
      status: 'processed',
      amount: 100_000 - 2950 + 33_333 - 983 - 10_000,
      fees: 2950 + 983,
      tax: 450 + 150,
    });
    expect(settlement.id).toMatch(/^setl_[A-Za-z0-9]{14}$/);
    expect(settlement.utr).toMatch(/^\d{10}[0-9a-z]{6}$/);
    expect(await rzp.settlements.fetch(settlement.id)).toEqual(settlement);

    // The deposit is announced as the real service does, with a snapshot of the settlement.
    const events = await sb.admin<{ items: Json[] }>('GET', '/events');
    const processed = events.items.filter((e) => e.event === 'settlement.processed');
    expect(processed.map((e) => e.payload.settlement.entity)).toEqual([settlement]);

    const from = settlement.created_at - 60;
    expect((await rzp.settlements.all({ from, to: settlement.created_at })).items).toEqual([settlement]);
    expect((await rzp.settlements.all({ from: settlement.created_at + 1 })).items).toEqual([]);

    // The settlement's day in India names the report.
    const day = DateTime.fromSeconds(settlement.created_at, { zone: 'Asia/Kolkata' });
    const report = await rzp.settlements.reports({ year: day.year, month: day.month });
    expect(report.entity).toBe('collection');
    expect(report.items).toHaveLength(3);
    for (const row of report.items) expect(Object.keys(row).sort()).toEqual([...RECON_FIELDS].sort());
    const byId = Object.fromEntries(report.items.map((r: Json) => [r.entity_id, r]));
    expect(byId[paid[0].id]).toMatchObject({ type: 'payment', credit: 97_050, debit: 0, fee: 2950, tax: 450 });
    expect(byId[paid[1].id]).toMatchObject({ type: 'payment', credit: 32_350, order_receipt: 'sdk-33333' });
    expect(byId[refund.id]).toMatchObject({ type: 'refund', debit: 10_000, credit: 0, payment_id: paid[0].id });
    for (const row of report.items)
      expect(row).toMatchObject({ settlement_id: settlement.id, settlement_utr: settlement.utr, settled: true });

    const oneDay = await rzp.settlements.reports({ year: day.year, month: day.month, day: day.day, count: 2, skip: 1 });
    expect(oneDay.items.map((r: Json) => r.entity_id)).toEqual(report.items.slice(1, 3).map((r: Json) => r.entity_id));
    const dayBefore = day.minus({ days: 1 });
    const empty = await rzp.settlements.reports({ year: dayBefore.year, month: dayBefore.month, day: dayBefore.day });
    expect(empty.items).toEqual([]);

    // Refusals as the real service words them: an unknown id, a month out of range.
    const unknown = await rzp.settlements.fetch('setl_00000000000000').catch((e: Json) => e);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.error.description).toBe('The id provided does not exist');
    const bad = await rzp.settlements.reports({ year: day.year, month: 13 }).catch((e: Json) => e);
    expect(bad.statusCode).toBe(400);
    expect(bad.error.field).toBe('month');
  });
});
