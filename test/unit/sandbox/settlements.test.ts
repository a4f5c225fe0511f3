import { afterEach, describe, expect, it } from 'vitest';
import { checkout } from '../../../src/sandbox/checkout';
import { createOrder } from '../../../src/sandbox/orders';
import { refund } from '../../../src/sandbox/refunds';
import { recon } from '../../../src/sandbox/settlements-recon';
import { settleDue, settlementDue } from '../../../src/sandbox/settlements';
import { feeOf, feeRate, keepFeeRate } from '../../../src/sandbox/settlements-fees';
import { Store } from '../../../src/sandbox/store';
import type { RouteContext } from '../../../src/sandbox/context';

describe('fee and GST on a captured amount', () => {
  it('₹1,000.00 at 2% pays a fee of 2360 paise, of which 360 are GST', () => {
    expect(feeOf(100_000, 2)).toEqual({ fee: 2360, tax: 360 });
  });

  it('rounds the charge, then the GST on it, half up to the paisa', () => {
    // 2% of 1025 is 20.5 -> 21; GST 18% of 21 is 3.78 -> 4.
    expect(feeOf(1025, 2)).toEqual({ fee: 25, tax: 4 });
    // 2% of 1024 is 20.48 -> 20; GST 3.6 -> 4.
    expect(feeOf(1024, 2)).toEqual({ fee: 24, tax: 4 });
    // 2.5% of 999 is 24.975 -> 25; GST 4.5 -> 5 (half up).
    expect(feeOf(999, 2.5)).toEqual({ fee: 30, tax: 5 });
    expect(feeOf(100_000, 0)).toEqual({ fee: 0, tax: 0 });
    expect(feeOf(1, 2)).toEqual({ fee: 0, tax: 0 });
  });

  it('a rate given once is kept in the database', () => {
    const store = new Store(':memory:');
    expect(feeRate(store)).toBe(2);
    keepFeeRate(store, 1.75);
    keepFeeRate(store, undefined);
    expect(feeRate(store)).toBe(1.75);
    store.close();
  });
});

const IST = 19_800;
/** Unix seconds of a wall-clock time in Asia/Kolkata. */
const ist = (y: number, m: number, d: number, h = 0, min = 0) => Date.UTC(y, m - 1, d, h, min) / 1000 - IST;

let store: Store;
afterEach(() => store?.close());

function captured(at: number, amount: number) {
  const order = createOrder(store, at, { amount, currency: 'INR', payment_capture: true });
  return store.tx(() => checkout(store, at, 5 * 86_400, { order_id: order.id }));
}

const reconOf = (query: { year: number; month: number; day?: number; count?: number; skip?: number }) =>
  recon({ store, query } as unknown as RouteContext<'settlementRecon'>).items as unknown as Array<
    Record<string, number | string>
  >;

describe('settlements', () => {
  it('settle two days later at 11:00 in India, whatever the hour of capture', () => {
    expect(settlementDue(ist(2026, 12, 1, 0, 0))).toBe(ist(2026, 12, 3, 11));
    expect(settlementDue(ist(2026, 12, 1, 23, 59))).toBe(ist(2026, 12, 3, 11));
    // 20:00 UTC on 30 November is 1 December in India.
    expect(settlementDue(Date.UTC(2026, 10, 30, 20) / 1000)).toBe(ist(2026, 12, 3, 11));
  });

  it("net a day's captures and refunds into one settlement: credits less debits, fees and GST summed", () => {
    store = new Store(':memory:');
    const a = captured(ist(2026, 12, 1, 9), 100_000);
    const b = captured(ist(2026, 12, 1, 18), 50_000);
    const r = store.tx(() => refund(store, ist(2026, 12, 1, 20), a, { amount: 30_000 }));
    const later = captured(ist(2026, 12, 2, 9), 20_000);
    settleDue(store, ist(2026, 12, 3, 10, 59));
    expect(store.list('settlement', { count: 10, skip: 0 })).toEqual([]);

    settleDue(store, ist(2026, 12, 3, 11));
    const [first, ...none] = store.list('settlement', { count: 10, skip: 0 });
    expect(none).toEqual([]);
    // 100000 - 2360 + 50000 - 1180 - 30000
    expect(first).toMatchObject({ amount: 116_460, fees: 3540, tax: 540, status: 'processed' });
    expect(first!.created_at).toBe(ist(2026, 12, 3, 11));
    expect(first!.utr).toMatch(new RegExp(`^${first!.created_at}[0-9a-z]{6}$`));

    const rows = reconOf({ year: 2026, month: 12 });
    expect(rows.map((row) => [row.type, row.entity_id, row.credit, row.debit, row.fee, row.tax])).toEqual([
      ['payment', a.id, 97_640, 0, 2360, 360],
      ['payment', b.id, 48_820, 0, 1180, 180],
      ['refund', r.id, 0, 30_000, 0, 0],
    ]);
    expect(rows.every((row) => row.settlement_id === first!.id && row.settlement_utr === first!.utr)).toBe(true);

    // The next day settles alone, once, with its own UTR.
    settleDue(store, ist(2026, 12, 10));
    settleDue(store, ist(2026, 12, 10));
    const all = store.list('settlement', { count: 10, skip: 0 });
    expect(all.map((s) => s.amount)).toEqual([20_000 - 472, 116_460]);
    expect(new Set(all.map((s) => s.utr)).size).toBe(2);
    expect(reconOf({ year: 2026, month: 12, day: 4 }).map((row) => row.entity_id)).toEqual([later.id]);
    // Paged by count and skip, in the same order.
    expect(reconOf({ year: 2026, month: 12, count: 2, skip: 2 }).map((row) => row.entity_id)).toEqual([r.id, later.id]);
    expect(reconOf({ year: 2026, month: 11 })).toEqual([]);
  });

  it('a day whose refunds outweigh its captures makes no deposit: its rows join the next one', () => {
    store = new Store(':memory:');
    const early = captured(ist(2026, 12, 1, 9), 100_000);
    settleDue(store, ist(2026, 12, 3, 11));
    store.tx(() => refund(store, ist(2026, 12, 5, 9), early, {}));
    const next = captured(ist(2026, 12, 6, 9), 200_000);
    settleDue(store, ist(2026, 12, 7, 11));
    expect(store.list('settlement', { count: 10, skip: 0 })).toHaveLength(1);
    settleDue(store, ist(2026, 12, 8, 11));
    const [latest] = store.list('settlement', { count: 10, skip: 0 });
    expect(latest).toMatchObject({ amount: 200_000 - 4720 - 100_000, created_at: ist(2026, 12, 8, 11) });
    expect(
      reconOf({ year: 2026, month: 12, day: 8 }).map((row) => [row.type, row.payment_id ?? row.entity_id]),
    ).toEqual([
      ['payment', next.id],
      ['refund', early.id],
    ]);
  });
});
