/**
 * The sandbox's own admin API (never part of the service interface), served under ADMIN_PREFIX: the
 * paths and methods the server routes and the sandbox commands call. Nothing heavy is imported here,
 * so a client can name an endpoint without loading SQLite or an HTTP server.
 */

export const ADMIN_PREFIX = '/_sandbox';

export const adminEndpoints = {
  checkout: { method: 'POST', path: '/checkout' },
  authorizeSubscription: { method: 'POST', path: '/subscriptions/authorize' },
  clock: { method: 'GET', path: '/clock' },
  advanceClock: { method: 'POST', path: '/clock/advance' },
  reset: { method: 'POST', path: '/reset' },
  seed: { method: 'POST', path: '/seed' },
  createCustomer: { method: 'POST', path: '/customers' },
  stats: { method: 'GET', path: '/stats' },
  account: { method: 'GET', path: '/account' },
  events: { method: 'GET', path: '/events' },
  tamperSettlement: { method: 'POST', path: '/settlements/tamper' },
  webhookListen: { method: 'POST', path: '/webhooks/listen' },
  webhookPoll: { method: 'POST', path: '/webhooks/poll' },
  webhookStop: { method: 'POST', path: '/webhooks/stop' },
  webhookFlush: { method: 'POST', path: '/webhooks/flush' },
  webhookEnable: { method: 'POST', path: '/webhooks/enable' },
  webhooks: { method: 'GET', path: '/webhooks' },
  webhookDeliveries: { method: 'POST', path: '/webhooks/deliveries' },
  webhookReplay: { method: 'POST', path: '/webhooks/replay' },
  webhookTrigger: { method: 'POST', path: '/webhooks/trigger' },
  webhookSecret: { method: 'GET', path: '/webhooks/secret' },
  webhookRotateSecret: { method: 'POST', path: '/webhooks/secret' },
} as const satisfies Record<string, { method: 'GET' | 'POST'; path: string }>;

export type AdminEndpointName = keyof typeof adminEndpoints;

/** The admin endpoint a request names, if any (`path` without the prefix). */
export function findAdminEndpoint(method: string, path: string): AdminEndpointName | undefined {
  for (const [name, endpoint] of Object.entries(adminEndpoints)) {
    if (endpoint.method === method && endpoint.path === path) return name as AdminEndpointName;
  }
  return undefined;
}
