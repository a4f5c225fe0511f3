import { randomBytes } from 'node:crypto';
import { encodeLikeService } from '../../contract/webhooks/signature';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const id = (prefix: string) => `${prefix}_${[...randomBytes(14)].map((b) => BASE62[b % 62]).join('')}`;

export interface DoctorEvent {
  eventId: string;
  paymentId: string;
  value: Record<string, unknown>;
  /** The bytes the service would send. */
  body: string;
}

/**
 * A `payment.*` event for a payment of its own, shaped like the service's (the real envelope, a payment
 * entity with the keys real ones carry) and carrying what real ones do: a `/` and non-ASCII text, so
 * the service's bytes are not JSON.stringify's and a handler that re-serializes fails on the first one.
 */
export function doctorEvent(name: 'payment.captured' | 'payment.authorized', at: number, paymentId = id('pay')) {
  const captured = name === 'payment.captured';
  const payment = {
    id: paymentId,
    entity: 'payment',
    amount: 50000,
    currency: 'INR',
    status: captured ? 'captured' : 'authorized',
    order_id: id('order'),
    invoice_id: null,
    international: false,
    method: 'upi',
    amount_refunded: 0,
    refund_status: null,
    captured,
    description: 'payctl doctor: café order 1/2',
    card_id: null,
    bank: null,
    wallet: null,
    vpa: 'success@razorpay',
    email: 'doctor@example.com',
    contact: '+919876543210',
    notes: { source: 'payctl doctor', url: 'https://example.com/a/b', city: 'Bengaluru ₹' },
    fee: captured ? 1180 : null,
    tax: captured ? 180 : null,
    error_code: null,
    error_description: null,
    created_at: at - 10,
  };
  const value = {
    entity: 'event',
    account_id: 'acc_payctldoctor1',
    event: name,
    contains: ['payment'],
    payload: { payment: { entity: payment } },
    created_at: at,
  };
  return { eventId: id('evt'), paymentId, value, body: encodeLikeService(value) } satisfies DoctorEvent;
}

/** Keys in reverse order, recursively: the same JSON, other bytes. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reordered(v)]),
    );
  return value;
}

/**
 * The same event as other, equally valid JSON: indented, keys in another order, every non-ASCII
 * character and one ASCII letter of each string as a `\u` escape. A handler that parses and
 * re-serializes before verifying gets other bytes than the ones signed.
 */
export function nonCanonical(value: unknown): string {
  const text = JSON.stringify(reordered(value), null, 2);
  return text
    .replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/"(p)ayctl/g, '"\\u0070ayctl');
}
