import * as z from 'zod/mini';
import { describeIssue } from '../contract';
import type { SandboxConfig } from './context';
import { SandboxError } from './errors';
import { newId } from './ids';
import { listEvents } from './events';
import { move } from './ledger';
import { checkout, createOrder } from './orders';
import { publicView } from './store';
import { authorize } from './subscription-cycles';
import type { Store } from './store';

const upTo = (max: number) => z.int().check(z.minimum(0), z.maximum(max));
const CheckoutBody = z.object({
  order_id: z.string().check(z.regex(/^order_[A-Za-z0-9]+$/, { message: 'is not a valid order id' })),
  method: z.optional(z.enum(['card', 'netbanking', 'wallet', 'upi'])),
  fail: z.optional(z.boolean()),
  email: z.optional(z.string().check(z.maxLength(120))),
  contact: z.optional(z.string().check(z.maxLength(20))),
});
const SubscriptionPayBody = z.object({
  subscription_id: z.string().check(z.regex(/^sub_[A-Za-z0-9]+$/, { message: 'is not a valid subscription id' })),
  method: z.optional(z.enum(['card', 'netbanking', 'wallet', 'upi'])),
  fail: z.optional(z.boolean()),
});
const AdvanceBody = z.object({ seconds: upTo(100 * 365 * 86_400) });
const SeedBody = z.object({
  orders: z.optional(upTo(100_000)),
  authorized: z.optional(upTo(100_000)),
  /** A new customer whose wallet statement holds this many entries, one a minute up to now. */
  wallet_entries: z.optional(upTo(1_000_000)),
  /** Or entries at exactly these Unix times (day-boundary tests). */
  wallet_entry_times: z.optional(z.array(upTo(Number.MAX_SAFE_INTEGER)).check(z.maxLength(10_000))),
});
type Seed = z.output<typeof SeedBody>;
const CustomerBody = z.object({
  contact: z.string().check(z.minLength(1), z.maxLength(20)),
  email: z.optional(z.string().check(z.maxLength(120))),
  name: z.optional(z.string().check(z.maxLength(120))),
});

function parse<T extends z.ZodMiniType>(schema: T, body: unknown): z.output<T> {
  const r = schema.safeParse(body);
  if (!r.success)
    throw new SandboxError(describeIssue(r.error, body), 400, r.error.issues[0]?.path.join('.') || undefined);
  return r.data;
}

export interface AdminDeps {
  store: Store;
  config: SandboxConfig;
  now: () => number;
  settle: (now: number) => void;
  requests: () => number;
}

/** The sandbox's own endpoints under /_sandbox/ (never /v1): checkout, clock, seed, reset, stats. */
export function adminRoute(method: string, path: string, body: unknown, deps: AdminDeps): unknown {
  const { store, config } = deps;
  const route = `${method} ${path}`;
  switch (route) {
    case 'POST /checkout': {
      const input = parse(CheckoutBody, body);
      return publicView(store.tx(() => checkout(store, deps.now(), config.captureWindowSeconds, input)));
    }
    case 'POST /subscriptions/authorize': {
      const input = parse(SubscriptionPayBody, body);
      return publicView(store.tx(() => authorize(store, deps.now(), config.captureWindowSeconds, input)));
    }
    case 'GET /clock':
      return { now: deps.now(), offset: Number(store.meta('clock_offset') ?? 0) };
    case 'POST /clock/advance': {
      const { seconds } = parse(AdvanceBody, body);
      store.tx(() => store.setMeta('clock_offset', String(Number(store.meta('clock_offset') ?? 0) + seconds)));
      deps.settle(deps.now());
      return { now: deps.now(), offset: Number(store.meta('clock_offset')) };
    }
    case 'POST /reset':
      store.reset();
      return { reset: true };
    case 'POST /seed':
      return seed(store, deps.now(), config, parse(SeedBody, body));
    case 'POST /customers': {
      const input = parse(CustomerBody, body);
      const now = deps.now();
      return publicView(
        store.tx(() =>
          store.insert({
            id: newId('cust'),
            entity: 'customer',
            name: input.name ?? null,
            email: input.email ?? null,
            contact: input.contact,
            gstin: null,
            notes: {},
            created_at: now,
          }),
        ),
      );
    }
    case 'GET /stats':
      return stats(deps);
    case 'GET /events':
      return listEvents(store);
  }
  throw new SandboxError(`No sandbox admin endpoint ${route}`, 400);
}

function seed(store: Store, now: number, config: SandboxConfig, body: Seed) {
  const order_ids: string[] = [];
  const payment_ids: string[] = [];
  const customer_ids: string[] = [];
  store.tx(() => {
    if (body.orders) {
      // Two with valid Indian mobiles (wallets can open) and one without (wallet creation is refused).
      for (const [name, contact] of [
        ['Asha Rao', '+919876543210'],
        ['Vikram Shah', '9123456780'],
        ['Overseas Buyer', '+14155550100'],
      ]) {
        customer_ids.push(
          String(
            store.insert({
              id: newId('cust'),
              entity: 'customer',
              name,
              email: null,
              contact,
              gstin: null,
              notes: {},
              created_at: now,
            }).id,
          ),
        );
      }
    }
    for (let i = 0; i < (body.orders ?? 0); i++) {
      const mix = i % 3;
      const order = createOrder(store, now, {
        amount: 1000 * (1 + (i % 50)),
        currency: 'INR',
        receipt: `seed-${i + 1}`,
        payment_capture: mix === 0,
        notes: {},
      });
      order_ids.push(String(order.id));
      if (mix < 2) {
        const payment = checkout(store, now, config.captureWindowSeconds, { order_id: String(order.id) });
        if (payment.status === 'authorized') payment_ids.push(String(payment.id));
      }
    }
    for (let i = 0; i < (body.authorized ?? 0); i++) {
      const order = createOrder(store, now, {
        amount: 50000,
        currency: 'INR',
        receipt: `bulk-${i + 1}`,
        payment_capture: false,
        notes: {},
      });
      order_ids.push(String(order.id));
      payment_ids.push(String(checkout(store, now, config.captureWindowSeconds, { order_id: String(order.id) }).id));
    }
    const entries =
      body.wallet_entry_times ??
      Array.from({ length: body.wallet_entries ?? 0 }, (_, i) => now - 60 * ((body.wallet_entries ?? 0) - i));
    if (entries.length)
      customer_ids.push(
        seedStatement(
          store,
          [...entries].sort((a, b) => a - b),
        ),
      );
  });
  return { order_ids, payment_ids, customer_ids };
}

/** Alternating cashback credits and wallet debits, so the running balance moves both ways and stays positive. */
function seedStatement(store: Store, times: number[]): string {
  const c = store.insert({
    id: newId('cust'),
    entity: 'customer',
    name: 'Statement Seed',
    email: null,
    contact: '+919812345678',
    gstin: null,
    notes: {},
    created_at: times[0]!,
  });
  times.forEach((at, i) => {
    const amount = 100 + ((i * 37) % 900);
    if (i % 2 === 0)
      move(store, at, c, { type: 'transfer', source: 'cashback', credit: amount + 50, description: 'Cashback' });
    else
      move(store, at, c, {
        type: 'payment',
        source: `pay_seed${i}`,
        debit: amount,
        description: `Payment for order seed-${i}`,
      });
  });
  return String(c.id);
}

function stats(deps: AdminDeps) {
  const captures: Record<string, number> = {};
  const refunds: Record<string, { count: number; amount: number }> = {};
  let captureWrites = 0;
  let refundWrites = 0;
  for (const row of deps.store.applied()) {
    if (row.kind === 'capture') {
      captures[row.payment_id] = row.count;
      captureWrites += row.count;
    } else {
      refunds[row.payment_id] = { count: row.count, amount: row.amount };
      refundWrites += row.count;
    }
  }
  const entities = deps.store.countEntities();
  return {
    requests: deps.requests(),
    writes: { orders: entities.order ?? 0, captures: captureWrites, refunds: refundWrites },
    records: entities,
    applied: { captures, refunds },
  };
}
