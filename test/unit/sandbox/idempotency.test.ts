import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox';
import type { RunningSandbox, SandboxOptions } from '../../../src/sandbox';
import { InFlightKeys, checkedKey, replayed, requestDigest } from '../../../src/sandbox/idempotency';
import { Store } from '../../../src/sandbox/store';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Json = Record<string, unknown> & { error?: Record<string, unknown> };

/** A sandbox served in-process on loopback, with a captured ₹500 payment per `captured()` call. */
async function sandbox(extra: Partial<SandboxOptions> = {}, db = ':memory:') {
  const sb = await startSandbox({ db, ...extra });
  cleanups.push(() => sb.close());
  return client(sb);
}

function client(sb: RunningSandbox) {
  const auth = 'Basic ' + Buffer.from(`${sb.keyId}:${sb.keySecret}`).toString('base64');
  const call = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(url, {
      method,
      headers: { authorization: auth, 'content-type': 'application/json', connection: 'close', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const api = (method: string, path: string, body?: unknown) => call(method, `${sb.baseUrl}${path}`, body);
  const admin = async (method: string, path: string, body?: unknown) =>
    (await call(method, `${sb.origin}/_sandbox${path}`, body ?? (method === 'POST' ? {} : undefined))).body;
  return {
    sb,
    api,
    admin,
    /** POST /payments/:id/refund, with the key header when one is given. */
    refund: (paymentId: string, body: unknown, key?: string) =>
      call('POST', `${sb.baseUrl}/payments/${paymentId}/refund`, body, key ? { 'X-Refund-Idempotency': key } : {}),
    async captured(): Promise<string> {
      const seeded = (await admin('POST', '/seed', { authorized: 1 })) as { payment_ids: string[] };
      const id = seeded.payment_ids[0]!;
      expect((await api('POST', `/payments/${id}/capture`, { amount: 50000, currency: 'INR' })).status).toBe(200);
      return id;
    },
    async refunds(paymentId: string) {
      const page = (await api('GET', `/payments/${paymentId}/refunds?count=100`)).body as { items: Json[] };
      const payment = (await api('GET', `/payments/${paymentId}`)).body;
      return { items: page.items, refunded: payment.amount_refunded };
    },
    /** Waits until the sandbox has received `n` service requests in all. */
    async received(n: number) {
      while (((await admin('GET', '/stats')) as { requests: number }).requests < n);
    },
  };
}

const KEY = 'payctl-0123456789abcdef';

describe('X-Refund-Idempotency in the sandbox', () => {
  it('the same key and body answer the first refund again: same id, 200, money moved once', async () => {
    const s = await sandbox();
    const pay = await s.captured();
    const body = { amount: 1000, receipt: 'r-1', notes: { payctl_key: KEY, reason: 'damaged' } };
    const first = await s.refund(pay, body, KEY);
    expect(first.status).toBe(200);
    // The same body with its keys in another order is the same request.
    const again = await s.refund(
      pay,
      { notes: { reason: 'damaged', payctl_key: KEY }, receipt: 'r-1', amount: 1000 },
      KEY,
    );
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body).toEqual(first.body);
    const { items, refunded } = await s.refunds(pay);
    expect(items.map((r) => r.id)).toEqual([first.body.id]);
    expect(refunded).toBe(1000);
    // Notes are kept as sent, in order.
    expect(Object.entries(first.body.notes as object)).toEqual([
      ['payctl_key', KEY],
      ['reason', 'damaged'],
    ]);
  });

  it('a used key with another body, or on another payment, is refused with the error object; nothing moves', async () => {
    const s = await sandbox();
    const [a, b] = [await s.captured(), await s.captured()];
    expect((await s.refund(a, { amount: 1000 }, KEY)).status).toBe(200);
    const refused = {
      code: 'BAD_REQUEST_ERROR',
      description: 'Different request with the same idempotency key has already been processed.',
      source: 'NA',
      step: 'NA',
      reason: 'NA',
    };
    for (const [payment, body] of [
      [a, { amount: 2000 }],
      [a, { amount: 1000, receipt: 'other' }],
      [b, { amount: 1000 }],
    ] as const) {
      const res = await s.refund(payment, body, KEY);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject(refused);
    }
    expect((await s.refunds(a)).refunded).toBe(1000);
    expect((await s.refunds(b)).items).toEqual([]);
  });

  it.each([
    ['shorter than 10 characters', 'abc123XYZ'],
    ['with characters other than letters, digits, - and _', 'payctl key 0123456789'],
    ['empty', ''],
  ])('a key %s is refused (400, error object) and nothing is refunded', async (_, key) => {
    const s = await sandbox();
    const pay = await s.captured();
    const res = await fetch(`${s.sb.baseUrl}/payments/${pay}/refund`, {
      method: 'POST',
      headers: {
        authorization: 'Basic ' + Buffer.from(`${s.sb.keyId}:${s.sb.keySecret}`).toString('base64'),
        'content-type': 'application/json',
        'x-refund-idempotency': key,
      },
      body: JSON.stringify({ amount: 100 }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Json).error).toMatchObject({
      code: 'BAD_REQUEST_ERROR',
      description: expect.stringMatching(/idempotency key must be at least 10 characters/),
    });
    expect(await s.refunds(pay)).toEqual({ items: [], refunded: 0 });
  });

  it('a request refused by the business rules does not use up its key', async () => {
    const s = await sandbox();
    const pay = await s.captured();
    const tooMuch = await s.refund(pay, { amount: 60000 }, KEY);
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error).toMatchObject({ field: 'amount' });
    const fixed = await s.refund(pay, { amount: 500 }, KEY);
    expect(fixed.status).toBe(200);
    expect((await s.refunds(pay)).refunded).toBe(500);
  });

  it('answers 409 while the first request with the key is held, then the first refund to a retry', async () => {
    const s = await sandbox({ latencyMs: 400 });
    const pay = await s.captured();
    const before = ((await s.admin('GET', '/stats')) as { requests: number }).requests;
    const first = s.refund(pay, { amount: 700 }, KEY);
    await s.received(before + 1);
    const during = await s.refund(pay, { amount: 700 }, KEY);
    expect(during.status).toBe(409);
    expect(during.body.error).toMatchObject({
      code: 'BAD_REQUEST_ERROR',
      description: expect.stringMatching(/still being processed/),
    });
    // Another body under the key is answered 409 too while the first is in flight.
    expect((await s.refund(pay, { amount: 1 }, KEY)).status).toBe(409);
    const done = await first;
    expect(done.status).toBe(200);
    const retry = await s.refund(pay, { amount: 700 }, KEY);
    expect([retry.status, retry.body.id]).toEqual([200, done.body.id]);
    expect((await s.refunds(pay)).refunded).toBe(700);
  });

  it('with ignoreIdempotency the header is ignored: every request refunds, a short key too', async () => {
    const s = await sandbox({ ignoreIdempotency: true });
    const pay = await s.captured();
    const a = await s.refund(pay, { amount: 100 }, KEY);
    const b = await s.refund(pay, { amount: 100 }, KEY);
    const c = await s.refund(pay, { amount: 100 }, 'short');
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    expect(new Set([a.body.id, b.body.id, c.body.id]).size).toBe(3);
    expect((await s.refunds(pay)).refunded).toBe(300);
  });

  it('keys are kept in the database: a restarted sandbox still answers the first refund', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payctl-idem-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'sandbox.db');
    const one = client(await startSandbox({ db }));
    const pay = await one.captured();
    const first = await one.refund(pay, { amount: 900 }, KEY);
    await one.sb.close();
    const two = await sandbox({}, db);
    const again = await two.refund(pay, { amount: 900 }, KEY);
    expect([again.status, again.body.id]).toEqual([200, first.body.id]);
    expect((await two.refunds(pay)).refunded).toBe(900);
  });

  it("keeps 15 notes exactly as sent; a 16th is refused with the service's 400 and nothing moves", async () => {
    const s = await sandbox();
    const pay = await s.captured();
    const notes = Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`k${14 - i}`, ` value ${i} ₹ `]));
    const ok = await s.refund(pay, { amount: 100, notes: { payctl_key: KEY, ...notes } }, KEY);
    expect(ok.status).toBe(200);
    expect(Object.entries(ok.body.notes as object)).toEqual(Object.entries({ payctl_key: KEY, ...notes }));
    const fetched = await s.api('GET', `/refunds/${String(ok.body.id)}`);
    expect(fetched.body.notes).toEqual(ok.body.notes);
    const other = 'payctl-fedcba9876543210';
    const tooMany = await s.refund(pay, { amount: 100, notes: { payctl_key: other, ...notes, k15: 'x' } }, other);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatchObject({
      code: 'BAD_REQUEST_ERROR',
      description: 'The notes may not have more than 15 items.',
    });
    expect((await s.refunds(pay)).refunded).toBe(100);
  });

  it('only refunds honour the header: other writes ignore it', async () => {
    const s = await sandbox();
    const seeded = (await s.admin('POST', '/seed', { authorized: 1 })) as { payment_ids: string[] };
    const res = await fetch(`${s.sb.baseUrl}/payments/${seeded.payment_ids[0]}/capture`, {
      method: 'POST',
      headers: {
        authorization: 'Basic ' + Buffer.from(`${s.sb.keyId}:${s.sb.keySecret}`).toString('base64'),
        'content-type': 'application/json',
        'x-refund-idempotency': 'short',
      },
      body: JSON.stringify({ amount: 50000, currency: 'INR' }),
    });
    expect(res.status).toBe(200);
  });
});

describe('idempotency rules', () => {
  it('checks keys as the service documents them', () => {
    expect(checkedKey(undefined, 'rzp_test_a')).toBeUndefined();
    expect(checkedKey('550e8400-e29b-41d4-a716-446655440000', 'm')).toEqual({
      merchant: 'm',
      key: '550e8400-e29b-41d4-a716-446655440000',
    });
    expect(checkedKey('abcdefghij', 'm')?.key).toBe('abcdefghij');
    for (const bad of ['abcdefghi', 'abc.defghij', 'abcdefghij\n', 'ключ-0123456789'])
      expect(() => checkedKey(bad, 'm')).toThrow(/at least 10 characters/);
    // Two headers of the name arrive joined: that is not one key.
    expect(() => checkedKey(['abcdefghij', 'abcdefghij'], 'm')).toThrow(/at least 10 characters/);
  });

  it('a digest names the payment and the body, not the order of its keys', () => {
    const d = requestDigest('pay_1', { amount: 1, notes: { a: '1', b: '2' } });
    expect(requestDigest('pay_1', { notes: { b: '2', a: '1' }, amount: 1 })).toBe(d);
    expect(requestDigest('pay_2', { amount: 1, notes: { a: '1', b: '2' } })).not.toBe(d);
    expect(requestDigest('pay_1', { amount: 1, notes: { a: '1', b: '3' } })).not.toBe(d);
    expect(requestDigest('pay_1', { amount: 1 })).not.toBe(requestDigest('pay_1', { amount: 1, notes: {} }));
  });

  it('keys belong to one merchant key id', () => {
    const store = new Store(':memory:');
    cleanups.push(() => store.close());
    const digest = requestDigest('pay_1', { amount: 1 });
    store.tx(() => {
      store.insert(
        { id: 'rfnd_1', entity: 'refund', created_at: 1, amount: 1, payment_id: 'pay_1' },
        { parent: 'pay_1' },
      );
      store.saveRefundKey('rzp_test_A', KEY, digest, 'rfnd_1');
    });
    expect(replayed(store, { merchant: 'rzp_test_A', key: KEY }, digest)?.id).toBe('rfnd_1');
    expect(replayed(store, { merchant: 'rzp_test_B', key: KEY }, digest)).toBeUndefined();
    expect(() => replayed(store, { merchant: 'rzp_test_A', key: KEY }, requestDigest('pay_1', { amount: 2 }))).toThrow(
      'Different request with the same idempotency key has already been processed.',
    );
  });

  it('a key in flight is refused until released, per merchant', () => {
    const keys = new InFlightKeys();
    const release = keys.claim({ merchant: 'A', key: KEY });
    expect(() => keys.claim({ merchant: 'A', key: KEY })).toThrow(/still being processed/);
    keys.claim({ merchant: 'B', key: KEY })();
    release();
    keys.claim({ merchant: 'A', key: KEY })();
  });
});
