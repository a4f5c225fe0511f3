import type { ApiClient } from '../../client/client';
import type { PaymentMethod } from '../../contract/vocabulary';
import type { PaymentRecord, SubscriptionRecord } from '../../contract/resources';

/** The sandbox's own admin API (not part of the service interface), below the origin. */
const ADMIN_PREFIX = '/_sandbox';

export interface Seeded {
  order_ids: string[];
  payment_ids: string[];
  customer_ids: string[];
  /** With orders: the plans, and a subscription in each status the service has. */
  plan_ids?: string[];
  subscription_ids?: string[];
  /** With `wallets`: the customers made with wallets, and the span of their statements (Unix seconds). */
  wallet_customer_ids?: string[];
  wallet_span?: { from: number; to: number };
}
export interface MerchantAccount {
  entity: 'merchant_account';
  balance: number;
  currency: string;
  captured_less_refunded: number;
  transferred_to_wallets: number;
}
export interface SandboxClock {
  now: number;
  offset: number;
}
/** What the sandbox's own customer endpoint takes (it makes the same customers as POST /customers). */
export interface CustomerInput {
  contact: string;
  email?: string;
  name?: string;
}

const call = <T>(api: ApiClient, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> =>
  api.requestFromOrigin<T>(method, `${ADMIN_PREFIX}${path}`, body);

/** Each admin route with the shape of its body and answer. */
export const sandboxAdmin = (api: ApiClient) => ({
  checkout: (body: { order_id: string; method: PaymentMethod; fail: boolean; email?: string; contact?: string }) =>
    call<PaymentRecord>(api, 'POST', '/checkout', body),
  authorize: (body: { subscription_id: string; method: PaymentMethod; fail: boolean }) =>
    call<SubscriptionRecord>(api, 'POST', '/subscriptions/authorize', body),
  clock: () => call<SandboxClock>(api, 'GET', '/clock'),
  advance: (seconds: number) => call<SandboxClock>(api, 'POST', '/clock/advance', { seconds }),
  reset: () => call<{ reset: true }>(api, 'POST', '/reset'),
  seed: (body: { orders: number; authorized: number; wallets?: number }) => call<Seeded>(api, 'POST', '/seed', body),
  account: () => call<MerchantAccount>(api, 'GET', '/account'),
  stats: () => call<Record<string, unknown>>(api, 'GET', '/stats'),
  events: () => call<{ items: unknown[] }>(api, 'GET', '/events'),
  createCustomer: (body: CustomerInput) => call<Record<string, unknown>>(api, 'POST', '/customers', body),
});

/** A new account as the sandbox answers it: its keys open it alone. */
export interface SandboxAccount {
  entity: 'sandbox_account';
  id: string;
  name: string;
  key_id: string;
  key_secret: string;
  webhook_secret: string;
  forked_from?: string;
  webhook?: string;
}
export interface SnapshotInfo {
  name: string;
  clock: number;
  records: number;
  bytes: number;
}

/** Accounts and snapshots: each call acts on the account whose key makes it. */
export const accountAdmin = (api: ApiClient) => ({
  create: (body: { name?: string; from?: string; webhook?: string }) =>
    call<SandboxAccount>(api, 'POST', '/accounts', body),
  save: (name: string) => call<SnapshotInfo>(api, 'POST', '/snapshots/save', { name }),
  load: (name: string) => call<SnapshotInfo>(api, 'POST', '/snapshots/load', { name }),
  list: () => call<{ items: SnapshotInfo[] }>(api, 'GET', '/snapshots'),
  remove: (name: string) => call<{ name: string; deleted: true }>(api, 'POST', '/snapshots/delete', { name }),
});
