import type { ApiClient } from '../../client/client';
import { isLoopback } from '../../client/loopback';
import { UsageError } from '../../contract/errors';
import type { ApiOptions, Context } from '../context';

/** The sandbox's webhook admin routes (not part of the service interface), below the origin. */
const PREFIX = '/_sandbox/webhooks';

/** What the sandbox's admin API answers with: its own declarations (types only, nothing loaded). */
import type { WebhookView as Webhook } from '../../sandbox/webhook-admin';
import type { AttemptView as Attempt } from '../../sandbox/webhook-store';

export type { Attempt, Webhook };

export interface Triggered {
  event: string;
  events: Array<{ id: string; event: string }>;
  [made: string]: unknown;
}

const call = <T>(api: ApiClient, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> =>
  api.requestFromOrigin<T>(method, `${PREFIX}${path}`, body);

export const webhookAdmin = (api: ApiClient) => ({
  listen: (body: { url: string; secret: string; events: string[] }) =>
    call<Webhook & { was_disabled: number | null }>(api, 'POST', '/listen', body),
  poll: (id: string, after: number) =>
    call<{ webhook: Webhook; attempts: Attempt[] }>(api, 'POST', '/poll', { id, after }),
  stop: (id: string) => call<Webhook>(api, 'POST', '/stop', { id }),
  flush: (id: string) => call<{ due: number }>(api, 'POST', '/flush', { id }),
  enable: (id: string) => call<Webhook>(api, 'POST', '/enable', { id }),
  list: () => call<{ items: Webhook[] }>(api, 'GET', ''),
  deliveries: (event?: string) =>
    call<{ items: Attempt[]; webhooks: Webhook[] }>(api, 'POST', '/deliveries', event ? { event } : {}),
  replay: (event_id: string, new_id: boolean) =>
    call<{ event_id: string; replay_of: string; event: string; queued: number }>(api, 'POST', '/replay', {
      event_id,
      new_id,
    }),
  trigger: (event: string, set: string[]) => call<Triggered>(api, 'POST', '/trigger', { event, set }),
});

/**
 * The webhook admin routes of the sandbox the active credentials point at: the service has none of
 * them, so a profile of the real service is refused before anything is sent.
 */
export async function sandboxWebhooks(ctx: Context, opts?: ApiOptions) {
  const { baseUrl } = await ctx.credentials();
  if (!isLoopback(baseUrl))
    throw new UsageError(
      `${baseUrl} is not a payctl sandbox: use --sandbox, or -p sandbox after \`payctl sandbox start\``,
    );
  return webhookAdmin(await ctx.api(undefined, opts));
}
