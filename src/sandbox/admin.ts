import * as z from 'zod/mini';
import { INR, PAYMENT_METHODS, describeIssue } from '../contract';
import type { Account, Accounts } from './accounts';
import { accountRoutes } from './admin-accounts';
import { findAdminEndpoint } from '../contract/admin-api';
import type { AdminEndpointName } from '../contract/admin-api';
import { bankRoutes } from './bank-admin';
import { checkout } from './checkout';
import type { SandboxClock } from './clock';
import type { SandboxConfig } from './context';
import { SandboxError } from './errors';
import { listEvents } from './events';
import { accountBalance } from './ledger';
import { newCustomer } from './customers';
import { SeedBody, seed } from './seed';
import { tamper } from './settlements';
import type { Store } from './store';
import { authorize } from './subscription-cycles';
import { webhookRoutes } from './webhook-admin';
import { forgetDeliveries } from './webhook-store';
import type { WebhookSender } from './webhooks';
import { publicView } from './views';

/** How the customer's payment attempt goes, for checkout and a subscription's authorization alike. */
const attempt = { method: z.optional(z.enum(PAYMENT_METHODS)), fail: z.optional(z.boolean()) };
const CheckoutBody = z.object({
  order_id: z.string().check(z.regex(/^order_[A-Za-z0-9]+$/, { message: 'is not a valid order id' })),
  ...attempt,
  email: z.optional(z.string().check(z.maxLength(120))),
  contact: z.optional(z.string().check(z.maxLength(20))),
});
const SubscriptionPayBody = z.object({
  subscription_id: z.string().check(z.regex(/^sub_[A-Za-z0-9]+$/, { message: 'is not a valid subscription id' })),
  ...attempt,
});
const AdvanceBody = z.object({ seconds: z.int().check(z.minimum(0), z.maximum(100 * 365 * 86_400)) });
const CustomerBody = z.object({
  contact: z.string().check(z.minLength(1), z.maxLength(20)),
  email: z.optional(z.string().check(z.maxLength(120))),
  name: z.optional(z.string().check(z.maxLength(120))),
});

const TamperBody = z.object({ settlement_id: z.string(), amount: z.int() });

export function parse<T extends z.ZodMiniType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body);
  if (!result.success) {
    const field = result.error.issues[0]?.path.join('.') || undefined;
    throw new SandboxError(describeIssue(result.error, body), 400, field);
  }
  return result.data;
}

export interface AdminDeps {
  store: Store;
  config: SandboxConfig;
  clock: SandboxClock;
  /** Settles everything due by sandbox time `now`. */
  runDueWork: (now: number) => void;
  requests: () => number;
  webhooks: WebhookSender;
  /** The account whose key made the request: every route acts on it alone. */
  account: Account;
  accounts: Accounts;
}

type AdminHandler = (body: unknown, deps: AdminDeps) => unknown;

/** The sandbox's own endpoints under /_sandbox/ (never /v1), each on the calling account (src/contract/admin-api.ts lists them). */
const adminRoutes: Record<AdminEndpointName, AdminHandler> = {
  checkout(body, { store, clock, config }) {
    const input = parse(CheckoutBody, body);
    return publicView(store.tx(() => checkout(store, clock.now(), config.captureWindowSeconds, input)));
  },
  authorizeSubscription(body, { store, clock, config }) {
    const input = parse(SubscriptionPayBody, body);
    return publicView(store.tx(() => authorize(store, clock.now(), config.captureWindowSeconds, input)));
  },
  clock: (_body, { clock }) => ({ now: clock.now(), offset: clock.offset() }),
  advanceClock(body, { clock, runDueWork }) {
    clock.advance(parse(AdvanceBody, body).seconds);
    runDueWork(clock.now());
    return { now: clock.now(), offset: clock.offset() };
  },
  reset(_body, { store }) {
    store.reset();
    forgetDeliveries(store);
    return { reset: true };
  },
  seed: (body, { store, clock, config }) => seed(store, clock.now(), config, parse(SeedBody, body)),
  createCustomer(body, { store, clock }) {
    const input = parse(CustomerBody, body);
    return publicView(store.tx(() => newCustomer(store, clock.now(), input)));
  },
  stats: (_body, deps) => stats(deps),
  account: (_body, { store, account }) => merchantAccount(store, account),
  events: (_body, { store }) => listEvents(store),
  tamperSettlement(body, { store }) {
    const input = parse(TamperBody, body);
    return tamper(store, input.settlement_id, input.amount);
  },
  ...webhookRoutes,
  ...accountRoutes,
  ...bankRoutes,
};

export function adminRoute(method: string, path: string, body: unknown, deps: AdminDeps): unknown {
  const name = findAdminEndpoint(method, path);
  if (!name) throw new SandboxError(`No sandbox admin endpoint ${method} ${path}`, 400);
  return adminRoutes[name](body, deps);
}

/** The merchant account that transfers into wallets draw on: captures, less refunds and transfers out. */
function merchantAccount(store: Store, account: Account) {
  const balance = accountBalance(store);
  return {
    entity: 'merchant_account',
    id: account.id,
    name: account.name,
    balance,
    currency: INR,
    captured_less_refunded: store.appliedBalance(),
    transferred_to_wallets: store.sumAmount('transfer', 'processed'),
  };
}

function stats({ store, requests }: AdminDeps) {
  const captures: Record<string, number> = {};
  const refunds: Record<string, { count: number; amount: number }> = {};
  let captureWrites = 0;
  let refundWrites = 0;
  for (const row of store.applied()) {
    if (row.kind === 'capture') {
      captures[row.payment_id] = row.count;
      captureWrites += row.count;
    } else {
      refunds[row.payment_id] = { count: row.count, amount: row.amount };
      refundWrites += row.count;
    }
  }
  const entities = store.countEntities();
  return {
    requests: requests(),
    writes: { orders: entities.order ?? 0, captures: captureWrites, refunds: refundWrites },
    records: entities,
    applied: { captures, refunds },
  };
}
