import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Razorpay from 'razorpay';
import type { SandboxProcess } from './harness';

/** SDK answers are the service's JSON, read freely in assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/**
 * The official SDK, unchanged, pointed at the sandbox the way README shows: its axios instance's
 * baseURL set to the sandbox origin (the SDK adds /v1 itself).
 */
export function sdkFor(sb: SandboxProcess, keySecret = sb.keySecret): Json {
  const rzp = new Razorpay({ key_id: sb.keyId, key_secret: keySecret });
  (rzp.api as unknown as { rq: { defaults: { baseURL: string } } }).rq.defaults.baseURL = sb.origin;
  return rzp;
}

/** The sandbox's simulated checkout of an order (`{ fail: true }` declines it): the payment, or the refusal. */
export const checkout = (sb: SandboxProcess, order_id: string, extra: Record<string, unknown> = {}) =>
  sb.admin<Json>('POST', '/checkout', { order_id, ...extra });

/** A customer made through the sandbox's admin API (as the dashboard would): its id. */
export const sandboxCustomer = (sb: SandboxProcess, contact = '+919876543210') =>
  sb.admin<Json>('POST', '/customers', { contact, name: 'Asha Rao' }).then((c) => String(c.id));

/** An order of `amount` paise made through the SDK, paid at the sandbox's checkout and captured: the payment. */
export async function sdkCapturedPayment(sb: SandboxProcess, rzp: Json, amount = 50000): Promise<Json> {
  const order = await rzp.orders.create({ amount, currency: 'INR', payment_capture: true });
  return checkout(sb, order.id);
}

/** `rzp.plans.create` for a plan charging `item` (in INR) once every `period`. */
export const createPlan = (rzp: Json, period: string, item: { name: string; amount: number }): Promise<Json> =>
  rzp.plans.create({ period, interval: 1, item: { ...item, currency: 'INR' } });

/**
 * An order of `amount` paise made through the SDK, and the body of an OpenWallet payment of it by the
 * customer `customer_id` with phone `contact` (POST /payments/create/openwallet), to send whole or spoiled.
 */
export async function openwalletPayment(rzp: Json, customer_id: string, amount: number, contact = '+919876543210') {
  const order = await rzp.orders.create({ amount, currency: 'INR' });
  const body = { method: 'wallet', wallet: 'openwallet', customer_id, order_id: order.id, amount, currency: 'INR' };
  return { ...body, contact, email: 'a@example.com' };
}

/** The SDK's rejection ({ statusCode, error }) of a call that must be refused. */
export async function refusal(call: Promise<unknown>): Promise<{ statusCode: number; error: Json }> {
  try {
    await call;
  } catch (err) {
    return err as { statusCode: number; error: Json };
  }
  throw new Error('the call was expected to be refused');
}

export interface Delivery {
  eventId: string;
  signature: string;
  raw: string;
  body: Json;
  /** Razorpay.validateWebhookSignature(raw body, X-Razorpay-Signature, secret), as a handler checks it. */
  verified: boolean;
}

/**
 * A webhook handler on loopback that verifies every delivery with the SDK. `failFirst` answers 500 to
 * the first delivery of each event id, so the sandbox has to retry it.
 */
export async function webhookReceiver(secret: () => string, opts: { failFirst?: boolean } = {}) {
  const deliveries: Delivery[] = [];
  const accepted = new Set<string>();
  const seen = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const eventId = String(req.headers['x-razorpay-event-id'] ?? '');
      const signature = String(req.headers['x-razorpay-signature'] ?? '');
      const verified = Razorpay.validateWebhookSignature(raw, signature, secret());
      deliveries.push({ eventId, signature, raw, body: JSON.parse(raw), verified });
      const fail = opts.failFirst && !seen.has(eventId);
      seen.add(eventId);
      if (!fail) accepted.add(eventId);
      res.writeHead(fail ? 500 : 200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    deliveries,
    /** Accepted deliveries of one event name, one per event id. */
    events(name: string): Delivery[] {
      const byId = new Map<string, Delivery>();
      for (const d of deliveries) if (d.body.event === name && accepted.has(d.eventId)) byId.set(d.eventId, d);
      return [...byId.values()];
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
