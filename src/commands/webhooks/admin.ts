import type { ApiClient } from '../../client/client';
import { isLoopback } from '../../client/loopback';
import { UsageError } from '../../contract/errors';
import type { AttemptView, ListenView, TriggeredView, WebhookView } from '../../contract/webhooks/views';
import type { ApiOptions, Context } from '../context';

/** The sandbox's webhook admin routes (not part of the service interface), below the origin. */
const PREFIX = '/_sandbox/webhooks';

export type { AttemptView as Attempt, WebhookView as Webhook } from '../../contract/webhooks/views';

const call = <T>(api: ApiClient, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> =>
  api.requestFromOrigin<T>(method, `${PREFIX}${path}`, body);

export const webhookAdmin = (api: ApiClient) => ({
  listen: (body: { url: string; events: string[] }) => call<ListenView>(api, 'POST', '/listen', body),
  poll: (id: string, after: number) =>
    call<{ webhook: WebhookView; attempts: AttemptView[] }>(api, 'POST', '/poll', { id, after }),
  stop: (id: string) => call<WebhookView>(api, 'POST', '/stop', { id }),
  flush: (id: string) => call<{ due: number }>(api, 'POST', '/flush', { id }),
  enable: (id: string) => call<WebhookView>(api, 'POST', '/enable', { id }),
  list: () => call<{ items: WebhookView[] }>(api, 'GET', ''),
  deliveries: (event?: string) =>
    call<{ items: AttemptView[]; webhooks: WebhookView[] }>(api, 'POST', '/deliveries', event ? { event } : {}),
  secret: () => call<{ secret: string }>(api, 'GET', '/secret'),
  rotateSecret: () => call<{ secret: string }>(api, 'POST', '/secret', {}),
  replay: (event_id: string, new_id: boolean) =>
    call<{ event_id: string; replay_of: string; event: string; queued: number }>(api, 'POST', '/replay', {
      event_id,
      new_id,
    }),
  trigger: (event: string, set: string[]) => call<TriggeredView>(api, 'POST', '/trigger', { event, set }),
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
