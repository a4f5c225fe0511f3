import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSecret, sandboxForFile } from './harness';

/**
 * An app's own test suite, written against the documented HTTP interface alone (docs/integrators.md,
 * docs/reference/sandbox-admin-api.md): fetch, no payctl command, no child process of its own. It
 * gets an account of its own on a shared sandbox, pays an order, moves its clock and sees the
 * settlement and the signed webhooks.
 */
const sb = sandboxForFile();
const ROOT = new URL('../../', import.meta.url).pathname;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What the app's webhook handler received: raw body and signature, checked as the app checks them. */
const received: Array<{ event: string; verified: boolean; body: Json }> = [];
let secret = '';
let hookUrl = '';
const handler = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    const expected = createHmac('sha256', secret).update(raw).digest();
    const given = Buffer.from(String(req.headers['x-razorpay-signature'] ?? ''), 'hex');
    const verified = given.length === expected.length && timingSafeEqual(given, expected);
    const body = JSON.parse(raw.toString('utf8')) as Json;
    received.push({ event: String(body.event), verified, body });
    res.writeHead(200).end();
  });
});

beforeAll(async () => {
  await new Promise<void>((r) => handler.listen(0, '127.0.0.1', () => r()));
  hookUrl = `http://127.0.0.1:${(handler.address() as AddressInfo).port}/hooks`;
});
afterAll(() => new Promise<void>((r) => handler.close(() => r())));

/** The app's HTTP client: Basic auth with its account's keys, JSON both ways. */
function client(keyId: string, keySecret: string) {
  const authorization = `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`;
  return async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<Json> => {
    const res = await fetch(`${sb.origin}${path}`, {
      method,
      headers: { authorization, 'content-type': 'application/json', connection: 'close' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as Json;
    expect(res.status, `${method} ${path}: ${JSON.stringify(json)}`).toBe(200);
    return json;
  };
}

describe("an app's test suite on the documented admin API", () => {
  it('gets its own account, pays an order, advances the clock, sees the settlement and the webhooks', async () => {
    const used: string[] = [];
    const shared = client(sb.keyId, sb.keySecret);
    const account = await shared('POST', '/_sandbox/accounts', { name: 'app-ci', webhook: hookUrl });
    used.push('POST /_sandbox/accounts');
    registerSecret(account.key_secret, account.key_id);
    secret = account.webhook_secret;
    const api = client(account.key_id, account.key_secret);

    const order = await api('POST', '/v1/orders', {
      amount: 150000,
      currency: 'INR',
      receipt: 'app-1',
      payment_capture: true,
    });
    const payment = await api('POST', '/_sandbox/checkout', {
      order_id: order.id,
      method: 'upi',
      email: 'app@example.com',
    });
    used.push('POST /_sandbox/checkout');
    expect(payment).toMatchObject({ order_id: order.id, status: 'captured', method: 'upi' });
    expect(await api('GET', `/v1/orders/${order.id}`)).toMatchObject({ status: 'paid', amount_paid: 150000 });

    const clock = await api('POST', '/_sandbox/clock/advance', { seconds: 3 * 86_400 });
    used.push('POST /_sandbox/clock/advance');
    expect(clock.offset).toBe(3 * 86_400);
    const settlements = await api('GET', '/v1/settlements');
    expect(settlements.count).toBe(1);
    const settlement = settlements.items[0] as Json;
    expect(settlement.amount).toBe(150000 - Number(payment.fee));
    expect((await api('GET', `/v1/settlements/${settlement.id}`)).id).toBe(settlement.id);

    await expect
      .poll(() => received.map((r) => r.event).sort(), { timeout: 15_000 })
      .toEqual(['order.paid', 'payment.authorized', 'payment.captured', 'settlement.processed'].sort());
    expect(received.every((r) => r.verified)).toBe(true);
    expect(received.every((r) => r.body.account_id === account.id)).toBe(true);
    expect(received.find((r) => r.event === 'settlement.processed')!.body.payload.settlement.entity.id).toBe(
      settlement.id,
    );
    const events = await api('GET', '/_sandbox/events');
    used.push('GET /_sandbox/events');
    expect(events.items).toHaveLength(4);

    // The shared sandbox's default account saw none of it.
    expect((await shared('GET', '/v1/orders?count=100')).items.map((o: Json) => o.id)).not.toContain(order.id);
    expect((await shared('GET', '/_sandbox/clock')).offset).toBe(0);

    // Every admin endpoint the suite used is in the generated reference, with its example.
    const reference = readFileSync(`${ROOT}docs/reference/sandbox-admin-api.md`, 'utf8');
    for (const endpoint of used) expect(reference).toContain(`## ${endpoint}`);
  });
});
