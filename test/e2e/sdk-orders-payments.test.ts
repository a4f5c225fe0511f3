import { beforeAll, describe, expect, it } from 'vitest';
import { sandboxForFile } from './harness';
import { missingKeys, realFixture } from '../real-keys';
import { checkout, refusal, sdkFor } from './sdk';
import type { Json } from './sdk';

// The official Node SDK (`razorpay`, unchanged) against `payctl sandbox start`, for every call an
// integrator makes on orders, payments and refunds: each answer has the keys of the real service's
// payload (test/fixtures/real) and the types and values the SDK's own typings (dist/types) declare.

const sb = sandboxForFile();
let rzp: Json;
beforeAll(() => {
  rzp = sdkFor(sb);
});

const isNotes = (v: unknown) => Array.isArray(v) || (v !== null && typeof v === 'object');
const nullOr = (v: unknown, type: string) => v === null || typeof v === type;

/** Orders.RazorpayOrder, Payments.RazorpayPayment and Refunds.RazorpayRefund, as the SDK types them. */
const SDK_TYPES: Record<string, (r: Json) => Record<string, boolean>> = {
  order: (o) => ({
    id: /^order_\w{14}$/.test(o.id),
    entity: o.entity === 'order',
    amount: Number.isInteger(o.amount),
    amount_paid: Number.isInteger(o.amount_paid),
    amount_due: Number.isInteger(o.amount_due),
    currency: typeof o.currency === 'string',
    receipt: nullOr(o.receipt, 'string'),
    status: ['created', 'attempted', 'paid'].includes(o.status),
    attempts: Number.isInteger(o.attempts),
    notes: isNotes(o.notes),
    created_at: Number.isInteger(o.created_at),
  }),
  payment: (p) => ({
    id: /^pay_\w{14}$/.test(p.id),
    entity: p.entity === 'payment',
    status: ['created', 'authorized', 'captured', 'refunded', 'failed'].includes(p.status),
    international: typeof p.international === 'boolean',
    captured: typeof p.captured === 'boolean',
    amount_refunded: Number.isInteger(p.amount_refunded),
    refund_status: [null, 'partial', 'full'].includes(p.refund_status),
    method: typeof p.method === 'string',
    order_id: typeof p.order_id === 'string',
    card_id: nullOr(p.card_id, 'string'),
    fee: nullOr(p.fee, 'number'),
    tax: nullOr(p.tax, 'number'),
    error_code: nullOr(p.error_code, 'string'),
    notes: isNotes(p.notes),
    created_at: Number.isInteger(p.created_at),
  }),
  refund: (r) => ({
    id: /^rfnd_\w{14}$/.test(r.id),
    entity: r.entity === 'refund',
    amount: Number.isInteger(r.amount),
    currency: typeof r.currency === 'string',
    payment_id: /^pay_\w{14}$/.test(r.payment_id),
    status: ['pending', 'processed', 'failed'].includes(r.status),
    speed_processed: ['instant', 'normal'].includes(r.speed_processed),
    speed_requested: ['normal', 'optimum'].includes(r.speed_requested),
    notes: isNotes(r.notes),
    created_at: Number.isInteger(r.created_at),
  }),
};
const FIXTURE: Record<string, string> = {
  order: 'order.json',
  payment: 'payment_captured.json',
  refund: 'refund.json',
};

/** The record is shaped as the real service's and as the SDK's typings say: the failing fields are named. */
function expectShape(kind: 'order' | 'payment' | 'refund', record: Json) {
  expect(missingKeys(realFixture(FIXTURE[kind]!), record), `${kind} keys missing`).toEqual([]);
  const wrong = Object.entries(SDK_TYPES[kind]!(record))
    .filter(([, ok]) => !ok)
    .map(([k]) => `${k}=${JSON.stringify(record[k])}`);
  expect(wrong, `${kind} fields not as the SDK types them`).toEqual([]);
  return record;
}

function expectCollection(kind: 'order' | 'payment' | 'refund', page: Json, count?: number) {
  expect(page).toMatchObject({ entity: 'collection', count: page.items.length });
  if (count !== undefined) expect(page.items).toHaveLength(count);
  for (const item of page.items) expectShape(kind, item);
  return page.items as Json[];
}

describe('orders through the SDK', () => {
  it('create, all, fetch, fetchPayments and edit answer as the SDK expects', async () => {
    const receipt = `sdk-${Date.now()}`;
    const order = expectShape(
      'order',
      await rzp.orders.create({ amount: 90000, currency: 'INR', receipt, payment_capture: true }),
    );
    expect(expectCollection('order', await rzp.orders.all({ receipt }), 1)[0].id).toBe(order.id);
    expect(expectShape('order', await rzp.orders.fetch(order.id))).toMatchObject({ id: order.id, status: 'created' });

    const failed = await checkout(sb, order.id, { fail: true });
    const paid = await checkout(sb, order.id);
    const attempts = expectCollection('payment', await rzp.orders.fetchPayments(order.id), 2);
    expect(attempts.map((p) => [p.id, p.status])).toEqual([
      [paid.id, 'captured'],
      [failed.id, 'failed'],
    ]);
    expect(await rzp.orders.fetch(order.id)).toMatchObject({ status: 'paid', attempts: 2, amount_due: 0 });

    await rzp.orders.edit(order.id, { notes: { ticket: 'SUP-1' } });
    const edited = expectShape('order', await rzp.orders.edit(order.id, { notes: { agent: 'asha' } }));
    expect(edited.notes).toEqual({ ticket: 'SUP-1', agent: 'asha' });
    expect((await rzp.orders.fetch(order.id)).notes).toEqual({ ticket: 'SUP-1', agent: 'asha' });
  });

  it('an unknown order is refused as the service refuses one; edit takes notes only', async () => {
    for (const call of [
      rzp.orders.fetch('order_AAAAAAAAAAAAAA'),
      rzp.orders.fetchPayments('order_AAAAAAAAAAAAAA'),
      rzp.orders.edit('order_AAAAAAAAAAAAAA', { notes: { a: 1 } }),
    ]) {
      const err = await refusal(call);
      expect(err.statusCode).toBe(400);
      expect(err.error).toMatchObject({ code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist' });
    }
    const order = await rzp.orders.create({ amount: 1000, currency: 'INR' });
    const err = await refusal(rzp.orders.edit(order.id, { amount: 5 }));
    expect(err.error).toMatchObject({ description: 'amount is/are not required and should not be sent' });
  });
});

describe('payments through the SDK', () => {
  it('all, fetch, capture, refund, fetchMultipleRefund, fetchRefund and edit answer as the SDK expects', async () => {
    const order = await rzp.orders.create({ amount: 60000, currency: 'INR', payment_capture: false });
    const authorized = await checkout(sb, order.id, { email: 'priya@example.com' });
    expect(expectCollection('payment', await rzp.payments.all({ count: 100 })).map((p) => p.id)).toContain(
      authorized.id,
    );
    expect(expectShape('payment', await rzp.payments.fetch(authorized.id)).status).toBe('authorized');
    const captured = expectShape('payment', await rzp.payments.capture(authorized.id, 60000, 'INR'));
    expect(captured).toMatchObject({ status: 'captured', captured: true });

    const first = expectShape('refund', await rzp.payments.refund(authorized.id, { amount: 10000 }));
    const second = expectShape('refund', await rzp.payments.refund(authorized.id, { amount: 5000, notes: { r: 'x' } }));
    const refunds = expectCollection('refund', await rzp.payments.fetchMultipleRefund(authorized.id), 2);
    expect(refunds.map((r) => r.id)).toEqual([second.id, first.id]);
    expect(expectShape('refund', await rzp.payments.fetchRefund(authorized.id, first.id))).toMatchObject({
      id: first.id,
      amount: 10000,
      payment_id: authorized.id,
    });
    expect(await rzp.payments.fetch(authorized.id)).toMatchObject({ amount_refunded: 15000, refund_status: 'partial' });

    const edited = expectShape('payment', await rzp.payments.edit(authorized.id, { notes: { ticket: 'SUP-2' } }));
    expect(edited.notes).toEqual({ ticket: 'SUP-2' });
    expect((await rzp.payments.edit(authorized.id, { notes: { agent: 7 } })).notes).toEqual({
      ticket: 'SUP-2',
      agent: '7',
    });
  });

  it("fetchRefund of another payment's refund is refused as a missing one", async () => {
    const a = await checkout(
      sb,
      (await rzp.orders.create({ amount: 3000, currency: 'INR', payment_capture: true })).id,
    );
    const b = await checkout(
      sb,
      (await rzp.orders.create({ amount: 3000, currency: 'INR', payment_capture: true })).id,
    );
    const refund = await rzp.payments.refund(a.id, { amount: 1000 });
    const err = await refusal(rzp.payments.fetchRefund(b.id, refund.id));
    expect(err).toMatchObject({ statusCode: 400, error: { description: 'The id provided does not exist' } });
  });
});

describe('refunds through the SDK', () => {
  it('all, fetch and edit answer as the SDK expects', async () => {
    const paid = await checkout(
      sb,
      (await rzp.orders.create({ amount: 8000, currency: 'INR', payment_capture: true })).id,
    );
    const refund = await rzp.payments.refund(paid.id, { amount: 2000 });
    expect(expectCollection('refund', await rzp.refunds.all({ count: 100 })).map((r) => r.id)).toContain(refund.id);
    expect(expectCollection('refund', await rzp.refunds.all({ payment_id: paid.id }), 1)[0].id).toBe(refund.id);
    expect(expectShape('refund', await rzp.refunds.fetch(refund.id)).id).toBe(refund.id);
    const edited = expectShape('refund', await rzp.refunds.edit(refund.id, { notes: { ticket: 'SUP-3' } }));
    expect(edited.notes).toMatchObject({ ticket: 'SUP-3' });
    expect((await rzp.refunds.fetch(refund.id)).notes).toMatchObject({ ticket: 'SUP-3' });
  });

  it('a route the service does not serve is answered as the real service answers it', async () => {
    const err = await refusal(rzp.api.get({ url: '/no/such/thing' }));
    expect(err.statusCode).toBe(400);
    expect(err.error).toMatchObject({
      code: 'BAD_REQUEST_ERROR',
      description: 'The requested URL was not found on the server.',
      source: 'NA',
      step: 'NA',
      reason: 'NA',
    });
  });
});
