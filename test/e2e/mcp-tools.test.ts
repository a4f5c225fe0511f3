import { beforeAll, describe, expect, it } from 'vitest';
import { addProfile, sandboxForFile } from './harness';
import { call, capturedPayment, refunded, structured, textOf, withMcp } from './mcp-client';
import type { Rec } from './mcp-client';

const sb = sandboxForFile();
let books: Record<string, string>;
beforeAll(async () => {
  books = await addProfile(sb, 'books');
});

describe('payctl mcp: each tool runs its own command', () => {
  it('reads: a wallet, a page of its statement that says where the next starts, a filtered list', async () => {
    const { customer_ids } = await sb.admin<{ customer_ids: string[] }>('POST', '/seed', { wallet_entries: 15 });
    const customer = customer_ids[0]!;
    await withMcp(['-p', 'books'], books, async (client) => {
      const balance = await call(client, 'wallet_balance', { customer_id: customer });
      expect(structured(balance).data).toMatchObject({ entity: 'wallet_balance' });
      const first = await call(client, 'wallet_statement', { customer_id: customer });
      expect(structured<{ data: Rec[] }>(first).data).toHaveLength(10);
      expect(structured(first).page).toEqual({ count: 10, skip: 0, returned: 10, more_may_exist: true, next_skip: 10 });
      const next = await call(client, 'wallet_statement', { customer_id: customer, skip: '10' });
      expect(structured<{ data: Rec[] }>(next).data).toHaveLength(5);
      expect(structured(next).page).toMatchObject({ more_may_exist: false, next_skip: null });

      const id = await capturedPayment(sb);
      const captured = await call(client, 'payments_list', { status: 'captured', count: '100' });
      expect(structured<{ data: Rec[] }>(captured).data.map((p) => p.id)).toContain(id);
      const bad = await call(client, 'payments_list', { status: 'paid' });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/status.*paid.*Allowed choices/i);
      const missing = await call(client, 'subscriptions_get', { subscription_id: 'sub_NoSuchSub00001' });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toMatch(/does not exist/);
    });
  });

  it('the everyday reads are tools too: an order and its payments, a customer, a payment found by e-mail', async () => {
    const id = await capturedPayment(sb);
    await withMcp(['-p', 'books'], books, async (client) => {
      const payment = structured<{ data: Rec }>(await call(client, 'payments_get', { payment_id: id })).data;
      const order = await call(client, 'orders_get', { order_id: payment.order_id });
      expect(structured(order).data).toMatchObject({ id: payment.order_id, entity: 'order' });
      const attempts = await call(client, 'orders_payments', { order_id: payment.order_id });
      expect(structured<{ data: Rec[] }>(attempts).data.map((p) => p.id)).toContain(id);
      const byEmail = await call(client, 'payments_list', { email: String(payment.email), count: '100' });
      expect(structured<{ data: Rec[] }>(byEmail).data.map((p) => p.id)).toContain(id);
      const customers = await call(client, 'customers_list', {});
      expect(customers.isError).toBeFalsy();
    });
  });

  it("a capture is planned at the payment's full amount, and sent by its own command", async () => {
    const [id] = (await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 1 })).payment_ids;
    await withMcp(['-p', 'books', '--allow-writes', '--max-total', '50000'], books, async (client) => {
      const plan = await call(client, 'payments_capture', { payment_id: id });
      const planned = structured<{ plan: Rec; token: string }>(plan);
      expect(planned.plan).toMatchObject({
        amount: 50000,
        amountText: '₹500.00 (50000 paise)',
        state: { status: 'authorized' },
        requests: [{ method: 'POST', path: `/payments/${id}/capture`, body: { amount: 50000, currency: 'INR' } }],
      });
      const done = await call(client, 'confirm', { token: planned.token });
      expect(structured(done)).toMatchObject({ outcome: 'done', data: { id, status: 'captured' } });
      // The capture counted against the session's total: a refund of it passes the cap.
      const over = await call(client, 'payments_refund', { payment_id: id, amount: 100 });
      expect(structured(over)).toMatchObject({ outcome: 'refused', cap: 'max-total' });
    });
  });

  it('the person is asked with figures and ids only, and a No sends nothing', async () => {
    const id = await capturedPayment(sb);
    const asked: string[] = [];
    let answer = false;
    await withMcp(
      ['-p', 'books', '--allow-writes'],
      books,
      async (client) => {
        const declined = await call(client, 'payments_refund', { payment_id: id, amount: 1500 });
        expect(structured(declined)).toMatchObject({ outcome: 'declined' });
        expect(structured(declined)).not.toHaveProperty('token');
        expect(await refunded(sb, id)).toBe(0);
        answer = true;
        const sent = await call(client, 'payments_refund', { payment_id: id, amount: 1500 });
        expect(structured(sent)).toMatchObject({ outcome: 'done', data: { amount: 1500 } });
        expect(await refunded(sb, id)).toBe(1500);
      },
      (message) => {
        asked.push(message);
        return answer;
      },
    );
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatch(/^payctl \(profile books\): payments refund ₹15\.00 \(1500 paise\)\n/);
    expect(asked[0]).toContain(`"payment_id":"${id}"`);
    expect(asked[0]).toMatch(/Send it\?$/);
  });
});
