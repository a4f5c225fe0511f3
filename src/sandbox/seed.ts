import * as z from 'zod/mini';
import { INR } from '../contract';
import { checkout } from './checkout';
import type { SandboxConfig } from './context';
import { move } from './ledger';
import { createOrder } from './orders';
import { newCustomer } from './customers';
import { seedReads } from './reads';
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

/** Test data in one transaction: orders in a mix of states, authorized payments, a long wallet statement. */
export function seed(store: Store, now: number, config: SandboxConfig, body: Seed) {
  const order_ids: string[] = [];
  const payment_ids: string[] = [];
  const customer_ids: string[] = [];
  let wallets: { from: number; to: number } | undefined;
  const pay = (orderId: string) => checkout(store, now, config.captureWindowSeconds, { order_id: orderId });
  store.tx(() => {
    if (body.orders) {
      // Two with valid Indian mobiles (wallets can open) and one without (wallet creation is refused).
      for (const [name, contact] of [
        ['Asha Rao', '+919876543210'],
        ['Vikram Shah', '9123456780'],
        ['Overseas Buyer', '+14155550100'],
      ] as const) {
        customer_ids.push(newCustomer(store, now, { name, contact }).id);
      }
      seedReads(store, now);
    }
    for (let i = 0; i < (body.orders ?? 0); i++) {
      // A third captured at once, a third authorized, a third never paid.
      const mix = i % 3;
      const amount = 1000 * (1 + (i % 50));
      const order = createOrder(store, now, {
        amount,
        currency: INR,
        receipt: `seed-${i + 1}`,
        payment_capture: mix === 0,
      });
      order_ids.push(order.id);
      if (mix < 2) {
        const payment = pay(order.id);
        if (payment.status === 'authorized') payment_ids.push(payment.id);
      }
    }
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
