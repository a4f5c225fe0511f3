import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../src/sandbox/dispatch';
import { SandboxError, errorBody } from '../../../src/sandbox/errors';
import { accountBalance } from '../../../src/sandbox/ledger';
import { createOrder } from '../../../src/sandbox/orders';
import { checkout } from '../../../src/sandbox/checkout';
import { failRefund } from '../../../src/sandbox/refund-failure';
import { refund } from '../../../src/sandbox/refunds';
import type { EventRecord } from '../../../src/sandbox/records';
import { settleDue } from '../../../src/sandbox/settlements';
import { recon } from '../../../src/sandbox/settlements-recon';
import { Store } from '../../../src/sandbox/store';
import type { RouteContext } from '../../../src/sandbox/context';

const IST = 19_800;
/** Unix seconds of a wall-clock time in Asia/Kolkata. */
const ist = (d: number, h = 0) => Date.UTC(2026, 11, d, h) / 1000 - IST;

let store: Store;
afterEach(() => store?.close());

function captured(at: number, amount: number) {
  const order = createOrder(store, at, { amount, currency: 'INR', payment_capture: true });
  return store.tx(() => checkout(store, at, 5 * 86_400, { order_id: order.id }));
}
const pending = (at: number, paymentId: string, amount?: number) =>
  store.tx(() => refund(store, at, store.get('payment', paymentId)!, { amount }, true));
const fail = (at: number, refundId: string) => store.tx(() => failRefund(store, at, refundId));
const payment = (id: string) => store.get('payment', id)!;
const events = (): EventRecord[] => store.list('event', { count: 100, skip: 0 }).reverse();
/** A read as the service answers it, through the same routes the server serves. */
const read = (path: string) => {
  try {
    return dispatch({ method: 'GET', path, query: new URLSearchParams(), rawBody: '' }, () => ({
      store,
      now: ist(1, 12),
      config: { captureWindowSeconds: 5 * 86_400 },
    })) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof SandboxError) return errorBody(err) as Record<string, unknown>;
    throw err;
  }
};

describe('a refund that fails', () => {
  it('gives its amount back to the payment, the merchant account and the next refund', () => {
    store = new Store(':memory:');
    const p = captured(ist(1, 9), 100_000);
    const first = store.tx(() => refund(store, ist(1, 9), payment(p.id), { amount: 10_000 }));
    const balanceBefore = accountBalance(store);
    const r = pending(ist(1, 10), p.id, 30_000);
    expect(r.status).toBe('pending');
    expect(payment(p.id)).toMatchObject({ amount_refunded: 40_000, refund_status: 'partial', status: 'captured' });
    expect(accountBalance(store)).toBe(balanceBefore - 30_000);

    const failed = fail(ist(1, 11), r.id);
    expect(failed).toMatchObject({ id: r.id, status: 'failed', amount: 30_000 });
    expect(payment(p.id)).toMatchObject({ amount_refunded: 10_000, refund_status: 'partial', status: 'captured' });
    expect(accountBalance(store)).toBe(balanceBefore);
    expect(read(`/refunds/${r.id}`)).toMatchObject({ id: r.id, status: 'failed' });
    const ofPayment = read(`/payments/${p.id}/refunds`).items as Array<{ id: string; status: string }>;
    expect(ofPayment.map((x) => [x.id, x.status])).toEqual([
      [r.id, 'failed'],
      [first.id, 'processed'],
    ]);
    // What remains can be refunded again: 90000, not 60000.
    const again = store.tx(() => refund(store, ist(1, 12), payment(p.id), {}));
    expect(again.amount).toBe(90_000);
    expect(payment(p.id)).toMatchObject({ amount_refunded: 100_000, refund_status: 'full', status: 'refunded' });
  });

  it('of a whole payment: the payment is captured again, with nothing refunded', () => {
    store = new Store(':memory:');
    const p = captured(ist(1, 9), 50_000);
    const r = pending(ist(1, 10), p.id);
    expect(payment(p.id)).toMatchObject({ amount_refunded: 50_000, refund_status: 'full', status: 'refunded' });
    fail(ist(1, 11), r.id);
    expect(payment(p.id)).toMatchObject({ amount_refunded: 0, refund_status: null, status: 'captured' });
  });

  it('sends refund.created then refund.failed (never refund.processed), with the refund and the payment as left', () => {
    store = new Store(':memory:');
    const p = captured(ist(1, 9), 50_000);
    const before = events().length;
    const r = pending(ist(1, 10), p.id, 20_000);
    fail(ist(1, 11), r.id);
    const sent = events().slice(before);
    expect(sent.map((e) => e.event)).toEqual(['refund.created', 'refund.failed']);
    const failed = sent[1]!;
    expect(failed.contains).toEqual(['refund', 'payment']);
    expect(failed.payload.refund!.entity).toMatchObject({ id: r.id, status: 'failed', amount: 20_000 });
    expect(failed.payload.payment!.entity).toMatchObject({ id: p.id, amount_refunded: 0, refund_status: null });
    expect(sent[0]!.payload.refund!.entity).toMatchObject({ id: r.id, status: 'pending' });
  });

  it('is never settled as a debit', () => {
    store = new Store(':memory:');
    const p = captured(ist(1, 9), 100_000);
    const r = pending(ist(1, 10), p.id, 40_000);
    fail(ist(1, 11), r.id);
    settleDue(store, ist(10));
    const [settlement, ...none] = store.list('settlement', { count: 10, skip: 0 });
    expect(none).toEqual([]);
    expect(settlement!.amount).toBe(100_000 - 2360);
    const rows = recon({ store, query: { year: 2026, month: 12 } } as unknown as RouteContext<'settlementRecon'>)
      .items as Array<{ type: string; entity_id: string }>;
    expect(rows.map((row) => [row.type, row.entity_id])).toEqual([['payment', p.id]]);
  });

  it('only while pending: a processed refund is final, a failed one fails once', () => {
    store = new Store(':memory:');
    const p = captured(ist(1, 9), 100_000);
    const processed = store.tx(() => refund(store, ist(1, 9), payment(p.id), { amount: 1000 }));
    expect(() => fail(ist(1, 10), processed.id)).toThrow(/Only a pending refund can fail .* is processed/);
    const r = pending(ist(1, 10), p.id, 2000);
    fail(ist(1, 11), r.id);
    expect(() => fail(ist(1, 12), r.id)).toThrow(/is failed/);
    expect(payment(p.id).amount_refunded).toBe(1000);
    expect(() => fail(ist(1, 12), 'rfnd_nothere000000')).toThrow(SandboxError);
  });
});
