import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../src/sandbox/dispatch';
import { SandboxError, errorBody } from '../../../src/sandbox/errors';
import { createOrder } from '../../../src/sandbox/orders';
import { capture, newPayment } from '../../../src/sandbox/payments';
import { refund } from '../../../src/sandbox/refunds';
import { Store } from '../../../src/sandbox/store';

const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

const NOW = 1_790_000_000;

function sandbox() {
  const store = new Store(':memory:');
  stores.push(store);
  let now = NOW;
  const serve = () => ({ store, now, config: { captureWindowSeconds: 5 * 86_400 } });
  /** A request as the server hands it to dispatch; a refusal comes back as the service's error object. */
  const call = (method: string, path: string, query: Record<string, string> = {}) => {
    try {
      return { status: 200, body: dispatch({ method, path, query: new URLSearchParams(query), rawBody: '' }, serve) };
    } catch (err) {
      if (!(err instanceof SandboxError)) throw err;
      return { status: err.status, body: errorBody(err) };
    }
  };
  const captured = (amount: number) => {
    const order = createOrder(store, now, { amount, currency: 'INR' });
    const payment = newPayment(store, now, 5 * 86_400, order, {});
    return store.tx(() => capture(store, now, payment, { amount, currency: 'INR' }));
  };
  /** A refund one second after the previous one, so the order by time is unambiguous. */
  const refunded = (paymentId: string, amount: number) => {
    now += 1;
    return store.tx(() => refund(store, now, store.get('payment', paymentId)!, { amount }));
  };
  return { store, call, captured, refunded };
}

type Page = { entity: string; count: number; items: Array<{ id: string; payment_id: string; amount: number }> };

describe('refund reads', () => {
  it('GET /refunds lists every refund, most recent first, paged by count and skip', () => {
    const sb = sandbox();
    const a = sb.captured(10_000);
    const b = sb.captured(20_000);
    const made = [sb.refunded(a.id, 100), sb.refunded(b.id, 200), sb.refunded(a.id, 300)];
    const all = sb.call('GET', '/refunds');
    expect(all.status).toBe(200);
    const page = all.body as Page;
    expect(page.entity).toBe('collection');
    expect(page.count).toBe(3);
    expect(page.items.map((r) => r.id)).toEqual(made.map((r) => r.id).reverse());
    const second = sb.call('GET', '/refunds', { count: '1', skip: '1' }).body as Page;
    expect(second.items.map((r) => r.id)).toEqual([made[1]!.id]);
    const window = sb.call('GET', '/refunds', { from: String(NOW + 2), to: String(NOW + 2) }).body as Page;
    expect(window.items.map((r) => r.amount)).toEqual([200]);
  });

  it("GET /payments/:id/refunds lists only that payment's refunds; an unknown payment is refused", () => {
    const sb = sandbox();
    const a = sb.captured(10_000);
    const b = sb.captured(20_000);
    sb.refunded(a.id, 100);
    sb.refunded(b.id, 200);
    sb.refunded(a.id, 300);
    const ofA = sb.call('GET', `/payments/${a.id}/refunds`).body as Page;
    expect(ofA.items.map((r) => [r.payment_id, r.amount])).toEqual([
      [a.id, 300],
      [a.id, 100],
    ]);
    const none = sb.call('GET', `/payments/${sb.captured(500).id}/refunds`).body as Page;
    expect(none).toEqual({ entity: 'collection', count: 0, items: [] });
    const unknown = sb.call('GET', '/payments/pay_AAAAAAAAAAAAAA/refunds');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      error: { code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist', field: 'id' },
    });
  });

  it('GET /refunds/:id fetches one refund without bookkeeping keys; an unknown id is refused', () => {
    const sb = sandbox();
    const made = sb.refunded(sb.captured(10_000).id, 2_500);
    const got = sb.call('GET', `/refunds/${made.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: made.id, entity: 'refund', amount: 2_500, currency: 'INR' });
    expect(Object.keys(got.body as object).some((k) => k.startsWith('_'))).toBe(false);
    const unknown = sb.call('GET', '/refunds/rfnd_AAAAAAAAAAAAAA');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: { code: 'BAD_REQUEST_ERROR', field: 'id' } });
  });

  it('refuses a query the list does not take, and any query on a fetch by id', () => {
    const sb = sandbox();
    expect(sb.call('GET', '/refunds', { count: '101' }).status).toBe(400);
    expect(sb.call('GET', '/refunds', { status: 'processed' }).body).toMatchObject({
      error: { description: 'status is/are not required and should not be sent' },
    });
    expect(sb.call('GET', '/refunds/rfnd_AAAAAAAAAAAAAA', { count: '1' }).status).toBe(400);
  });
});
