import * as z from 'zod/mini';
import { INR } from '../contract';
import { checkout } from './checkout';
import type { SandboxConfig } from './context';
import { move } from './ledger';
import { createOrder } from './orders';
import { newCustomer } from './customers';
import { seedReads } from './reads';
import { refund } from './refunds';
import { seedBilling } from './seed-billing';
import { seedWallets } from './seed-wallets';
import type { Store } from './store';

const upTo = (max: number) => z.int().check(z.minimum(0), z.maximum(max));

export const SeedBody = z.object({
  orders: z.optional(upTo(100_000)),
  authorized: z.optional(upTo(100_000)),
  /** A new customer whose wallet statement holds this many entries, one a minute up to now. */
  wallet_entries: z.optional(upTo(1_000_000)),
  /** Or entries at exactly these Unix times (day-boundary tests). */
  wallet_entry_times: z.optional(z.array(upTo(Number.MAX_SAFE_INTEGER)).check(z.maxLength(10_000))),
  /** Customers with wallets, each with this many mixed statement entries over several days (seed-wallets.ts). */
  wallets: z.optional(upTo(10_000)),
});
type Seed = z.output<typeof SeedBody>;

/**
 * The customers orders are paid by: distinct names, e-mails and phones. The first two have valid Indian
 * mobiles (wallets can open) and the third does not (wallet creation is refused).
 */
const PEOPLE = [
  ['Asha Rao', 'asha.rao@example.com', '+919876543210'],
  ['Vikram Shah', 'vikram.shah@example.com', '9123456780'],
  ['Overseas Buyer', 'buyer@example.org', '+14155550100'],
  ['Priya Menon', 'priya.menon@example.com', '+919845012345'],
  ['Rahul Verma', 'rahul.verma@example.com', '+919900112233'],
  ['Meera Iyer', 'meera.iyer@example.com', '+919833344455'],
  ['Arjun Nair', 'arjun.nair@example.com', '+919744455566'],
  ['Kavya Reddy', 'kavya.reddy@example.com', '+919966677788'],
] as const;

/**
 * Test data in one transaction. With orders: the customers above, orders in every state (a third
 * captured, some of those refunded in part or in full; a third authorized, some after a declined
 * attempt; a third never paid), each paid by one of the customers, and plans with subscriptions in
 * every status. Authorized payments, a long wallet statement, customers with wallets on request.
 */
export function seed(store: Store, now: number, config: SandboxConfig, body: Seed) {
  const order_ids: string[] = [];
  const payment_ids: string[] = [];
  const customer_ids: string[] = [];
  let billing: { plan_ids: string[]; subscription_ids: string[] } | undefined;
  let wallets: { from: number; to: number } | undefined;
  const pay = (orderId: string) => checkout(store, now, config.captureWindowSeconds, { order_id: orderId });
  store.tx(() => {
    if (body.orders) {
      for (const [name, email, contact] of PEOPLE)
        customer_ids.push(newCustomer(store, now, { name, email, contact }).id);
      seedReads(store, now);
    }
    for (let i = 0; i < (body.orders ?? 0); i++) {
      const mix = i % 6;
      const [, email, contact] = PEOPLE[i % PEOPLE.length]!;
      const order = createOrder(store, now, {
        amount: 25_000 * (1 + (i % 8)),
        currency: INR,
        receipt: `seed-${i + 1}`,
        payment_capture: mix === 0 || mix === 3,
      });
      order_ids.push(order.id);
      if (mix === 2 || mix === 5) continue; // never paid
      const attempt = { order_id: order.id, email, contact };
      if (mix === 4) checkout(store, now, config.captureWindowSeconds, { ...attempt, method: 'upi', fail: true });
      const payment = checkout(store, now, config.captureWindowSeconds, attempt);
      if (payment.status === 'authorized') payment_ids.push(payment.id);
      // Of the captured ones, every fourth refunded in part and every fourth in full.
      if (i % 12 === 3) refund(store, now, payment, { amount: Math.floor(payment.amount / 3) });
      if (i % 12 === 9) refund(store, now, payment, {});
    }
    if (body.orders) billing = seedBilling(store, now, config, customer_ids.slice(0, PEOPLE.length));
    for (let i = 0; i < (body.authorized ?? 0); i++) {
      const order = createOrder(store, now, { amount: 50000, currency: INR, receipt: `bulk-${i + 1}` });
      order_ids.push(order.id);
      payment_ids.push(pay(order.id).id);
    }
    const count = body.wallet_entries ?? 0;
    const times = body.wallet_entry_times ?? Array.from({ length: count }, (_, i) => now - 60 * (count - i));
    if (times.length)
      customer_ids.push(
        seedStatement(
          store,
          [...times].sort((a, b) => a - b),
        ),
      );
    if (body.wallets) {
      const made = seedWallets(store, now, config, body.wallets);
      customer_ids.push(...made.customer_ids);
      wallets = { from: made.from, to: made.to };
    }
  });
  return {
    order_ids,
    payment_ids,
    customer_ids,
    ...billing,
    ...(wallets ? { wallet_customer_ids: customer_ids.slice(-2), wallet_span: wallets } : {}),
  };
}

/** Alternating cashback credits and wallet debits, so the running balance moves both ways and stays positive. */
function seedStatement(store: Store, times: number[]): string {
  const holder = newCustomer(store, times[0]!, { name: 'Statement Seed', contact: '+919812345678' });
  times.forEach((at, i) => {
    const amount = 100 + ((i * 37) % 900);
    if (i % 2 === 0)
      move(store, at, holder, { type: 'transfer', source: 'cashback', credit: amount + 50, description: 'Cashback' });
    else
      move(store, at, holder, {
        type: 'payment',
        source: `pay_seed${i}`,
        debit: amount,
        description: `Payment for order seed-${i}`,
      });
  });
  return holder.id;
}
