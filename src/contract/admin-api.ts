/**
 * The sandbox's own admin API (never part of the service interface), served under ADMIN_PREFIX: the
 * paths and methods the server routes and the sandbox commands call. Nothing heavy is imported here,
 * so a client can name an endpoint without loading SQLite or an HTTP server.
 */

export const ADMIN_PREFIX = '/_sandbox';

/** One admin endpoint: how it is called, what it does, and a request body that works (the reference's example). */
export interface AdminEndpoint {
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  example?: Record<string, unknown>;
}

/**
 * Every admin endpoint, in the order the generated reference lists them. The server routes these and
 * nothing else; `npm run docs` writes docs/reference/sandbox-admin-api.md from this table.
 */
export const adminEndpoints = {
  checkout: {
    method: 'POST',
    path: '/checkout',
    summary:
      "The customer's checkout of an order: a payment by `method` (card, upi, netbanking, wallet; default card), " +
      'declined with `fail: true`; `email` and `contact` are the customer details on it. Answers the payment.',
    example: { order_id: 'order_DBJOWzybf0sJbb', method: 'upi', email: 'asha@example.com', contact: '+919876543210' },
  },
  authorizeSubscription: {
    method: 'POST',
    path: '/subscriptions/authorize',
    summary:
      "The customer's authorisation of a subscription (its first charge when the plan starts now); " +
      '`fail: true` declines it, or every charge from then on. Answers the subscription.',
    example: { subscription_id: 'sub_DBJOWzybf0sJbb', method: 'card' },
  },
  clock: { method: 'GET', path: '/clock', summary: "The account's sandbox time (`now`, Unix seconds) and its offset." },
  advanceClock: {
    method: 'POST',
    path: '/clock/advance',
    summary:
      "Moves this account's clock forward `seconds`; what falls due happens (auto-refunds, subscription " +
      'cycles, payouts, settlements, their events). Other accounts keep their own time.',
    example: { seconds: 259200 },
  },
  seed: {
    method: 'POST',
    path: '/seed',
    summary:
      'Sample data: `orders` in a mix of states with customers, plans and subscriptions in every state; ' +
      '`authorized` manual-capture orders with one authorized payment each; `wallets` customers with wallet statements.',
    example: { orders: 20 },
  },
  createCustomer: {
    method: 'POST',
    path: '/customers',
    summary: 'A customer, without the duplicate check of POST /v1/customers.',
    example: { contact: '+919876543210', name: 'Asha Rao', email: 'asha@example.com' },
  },
  stats: { method: 'GET', path: '/stats', summary: "This account's requests, writes applied and records by entity." },
  account: {
    method: 'GET',
    path: '/account',
    summary: "This account's id and name, and the merchant balance that wallet credits and transfers draw on.",
  },
  createAccount: {
    method: 'POST',
    path: '/accounts',
    summary:
      'A new isolated merchant account on this sandbox: its own records, ids, events, webhooks, settlements and ' +
      'clock. Answers its `key_id`, `key_secret` and `webhook_secret`. `from` forks it from a snapshot of the ' +
      'calling account; `webhook` sends its events there, signed with its webhook secret.',
    example: { name: 'ci-suite-7' },
  },
  saveSnapshot: {
    method: 'POST',
    path: '/snapshots/save',
    summary: "Saves this account's whole state (records, counters, clock) under `name`, replacing one of that name.",
    example: { name: 'before-refunds' },
  },
  loadSnapshot: {
    method: 'POST',
    path: '/snapshots/load',
    summary:
      "Restores this account's state from snapshot `name`, its clock included; keys and registered webhooks stay.",
    example: { name: 'before-refunds' },
  },
  snapshots: { method: 'GET', path: '/snapshots', summary: "This account's snapshots." },
  deleteSnapshot: {
    method: 'POST',
    path: '/snapshots/delete',
    summary: 'Deletes snapshot `name` of this account.',
    example: { name: 'before-refunds' },
  },
  events: {
    method: 'GET',
    path: '/events',
    summary: 'Events emitted (newest first), with their webhook delivery state.',
  },
  tamperSettlement: {
    method: 'POST',
    path: '/settlements/tamper',
    summary: "Changes a settlement's amount without its entries, so reconciliation has a mismatch to find.",
    example: { settlement_id: 'setl_DBJOWzybf0sJbb', amount: 99000 },
  },
  bankStatement: {
    method: 'POST',
    path: '/bank-statement',
    summary:
      "The merchant bank account's statement for `month` as a bank sends it (`format`: mt940, camt053 or csv): " +
      'each settlement a credit on its value date among unrelated traffic; `quirks` (missing, extra, amount, ' +
      'truncate) make the findings a tie-out must catch. Answers the statement as `text`.',
    example: { month: '2024-04', format: 'mt940' },
  },
  webhookListen: {
    method: 'POST',
    path: '/webhooks/listen',
    summary:
      'Registers a listener: events matching `events` (all when empty) are POSTed to `url`, signed with the ' +
      "account's webhook secret, while it is renewed (a poll) at least every 10 seconds. Each call is its own " +
      'registration with its own filter.',
    example: { url: 'http://127.0.0.1:9000/hooks', events: ['payment.*'] },
  },
  webhookPoll: {
    method: 'POST',
    path: '/webhooks/poll',
    summary: "A listener's delivery attempts after attempt number `after`; renews it.",
    example: { id: 'wh_DBJOWzybf0sJbb', after: 0 },
  },
  webhookFlush: {
    method: 'POST',
    path: '/webhooks/flush',
    summary: "Sends a webhook's waiting retries now instead of at their backoff's end.",
    example: { id: 'wh_DBJOWzybf0sJbb' },
  },
  webhookEnable: {
    method: 'POST',
    path: '/webhooks/enable',
    summary: 'Re-enables a webhook disabled after 24 hours of failed deliveries.',
    example: { id: 'wh_DBJOWzybf0sJbb' },
  },
  webhooks: { method: 'GET', path: '/webhooks', summary: 'The registered webhooks (never their secrets).' },
  webhookDeliveries: {
    method: 'POST',
    path: '/webhooks/deliveries',
    summary: 'Delivery attempts (of one `event` name when given) and the webhooks.',
    example: { event: 'payment.captured' },
  },
  webhookReplay: {
    method: 'POST',
    path: '/webhooks/replay',
    summary: 'Sends an event again to every live webhook: the same bytes, under its own id or a new one (`new_id`).',
    example: { event_id: 'evt_DBJOWzybf0sJbb', new_id: false },
  },
  webhookTrigger: {
    method: 'POST',
    path: '/webhooks/trigger',
    summary: 'Makes the state change that sends `event`, with `set` overrides (`order.amount=120000`).',
    example: { event: 'payment.captured', set: [] },
  },
  webhookStop: {
    method: 'POST',
    path: '/webhooks/stop',
    summary: 'Stops sending to a listener.',
    example: { id: 'wh_DBJOWzybf0sJbb' },
  },
  webhookSecret: {
    method: 'GET',
    path: '/webhooks/secret',
    summary: "The account's webhook secret: what every delivery is signed with and a handler verifies with.",
  },
  webhookRotateSecret: {
    method: 'POST',
    path: '/webhooks/secret',
    summary:
      'Replaces the webhook secret (`secret`, or a new one when not given): new events are signed with it; ' +
      'retries already queued keep the signature they were made with.',
    example: { secret: 'whsec_rotated_for_test' },
  },
  reset: { method: 'POST', path: '/reset', summary: 'Deletes every record, counter and delivery of this account.' },
} as const satisfies Record<string, AdminEndpoint>;

export type AdminEndpointName = keyof typeof adminEndpoints;

/** The admin endpoint a request names, if any (`path` without the prefix). */
export function findAdminEndpoint(method: string, path: string): AdminEndpointName | undefined {
  for (const [name, endpoint] of Object.entries(adminEndpoints)) {
    if (endpoint.method === method && endpoint.path === path) return name as AdminEndpointName;
  }
  return undefined;
}
