import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { UsageError } from '../../contract/errors';
import { isLoopback } from '../../client/loopback';
import { localTime } from '../../output/time';
import { eventGlobs } from '../../contract/webhooks/signature';
import type { Context } from '../context';
import type { CommandResult } from '../result';
import { sandboxWebhooks } from './admin';
import type { Attempt } from './admin';
import { sandboxWebhookSecret, secretLine } from './secret';

export interface ListenOptions {
  forwardTo?: string;
  events?: string;
  printSecret: boolean;
}

const POLL_MS = 250;
/** While the target refuses connections, how often it is probed: its return is seen within this long. */
const PROBE_MS = 50;
const CONNECT_MS = 1_000;
/** The most attempts one poll answers (the admin route's page): a full page is followed at once. */
const PAGE = 1_000;

/** The forward target: an http(s) URL on this machine (query string kept as given). */
function forwardTarget(raw: string | undefined): URL {
  if (!raw) throw new UsageError('--forward-to URL is required (your handler, e.g. http://127.0.0.1:3000/webhooks)');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--forward-to is not a URL: ${JSON.stringify(raw)}`);
  }
  if (!/^https?:$/.test(url.protocol)) throw new UsageError('--forward-to must be an http:// or https:// URL');
  if (!isLoopback(url.origin))
    throw new UsageError('--forward-to must be on this machine (localhost, 127.0.0.1, [::1])');
  return url;
}

/** Whether something accepts connections at the target's host and port. */
function answers(url: URL): Promise<string | undefined> {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: CONNECT_MS });
    const done = (why?: string) => {
      socket.destroy();
      resolve(why);
    };
    socket.once('connect', () => done());
    socket.once('timeout', () => done('no answer'));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
  });
}

/** One delivery attempt as `-o ndjson` prints it. */
const record = (a: Attempt) => ({
  at: new Date(a.at * 1000).toISOString(),
  event_id: a.event_id,
  event: a.event,
  attempt: a.attempt,
  status: a.status,
  latency_ms: a.latency_ms,
  state: a.state,
  error: a.error,
  response: a.response,
  url: a.url,
});

/** One delivery attempt as a line for people. */
const line = (a: Attempt, tz: string) =>
  [
    localTime(a.at, tz).slice(11),
    a.event_id,
    a.event.padEnd(26),
    `attempt ${a.attempt}`,
    a.status === null ? a.error : `${a.status}${a.state === 'delivered' ? '' : ` (${a.state})`}`,
    `${a.latency_ms} ms`,
  ].join('  ');

/**
 * Forwards the sandbox's events to a handler on this machine until Ctrl-C: registers the target with
 * the sandbox (which sends each delivery straight to it, signed with the sandbox's webhook secret), then
 * follows the attempts. When the target stops answering it says so at once, and when it answers again
 * the deliveries that waited are sent at once.
 */
export async function listen(opts: ListenOptions, ctx: Context): Promise<CommandResult> {
  if (opts.printSecret) return secretLine(await sandboxWebhookSecret(ctx));
  const url = forwardTarget(opts.forwardTo);
  const globs = eventGlobs(opts.events);
  // Uninterruptible: after Ctrl-C the listener still tells the sandbox to stop sending to it.
  const admin = await sandboxWebhooks(ctx, { uninterruptible: true });
  const hook = await admin.listen({ url: url.href, events: globs });
  const what = globs.length ? globs.join(', ') : 'every event';
  ctx.notice(`forwarding ${what} to ${url.href}, signed with the sandbox's webhook secret (--print-secret shows it)`);
  if (hook.was_disabled)
    ctx.notice('this webhook had been disabled after 24 hours of failed deliveries: enabled again');
  if (hook.waiting) ctx.notice(`${hook.waiting} deliveries were waiting for it: sending them now`);
  ctx.notice('Ctrl-C stops');

  async function* attempts(): AsyncGenerator<Attempt> {
    let after = 0;
    let down = await answers(url);
    if (down) ctx.notice(`target ${url.host} is down (${down}): deliveries wait and go out when it answers`);
    let disabled = 0;
    const pause = (ms: number) =>
      ms > 0 ? sleep(ms, undefined, { signal: ctx.signal }).catch(() => undefined) : Promise.resolve();
    try {
      while (!ctx.signal.aborted) {
        const { webhook, attempts } = await admin.poll(hook.id, after);
        for (const a of attempts) {
          after = a.seq;
          yield a;
          // Down means refusing connections: a handler that answers slowly or with errors is not probed
          // and flushed, so the retry schedule holds for it.
          if (a.status === null && /^connection failed/.test(a.error ?? '') && !down) {
            down = a.error ?? 'no answer';
            ctx.notice(`target ${url.host} is down (${down}): deliveries wait and go out when it answers`);
          } else if (a.status !== null && down) {
            down = undefined;
            ctx.notice(`target ${url.host} answers again`);
          }
        }
        if (webhook.disabled_at !== null && !disabled++)
          ctx.notice(
            `the sandbox disabled this webhook (${webhook.disabled_reason}); new events wait for it: ` +
              `payctl webhooks enable ${webhook.id} (or restart listen) sends them`,
          );
        if (attempts.length >= PAGE) continue;
        // Until the next poll: a target that refuses connections is probed (a connect, no delivery),
        // and the moment it accepts one, what waits for it is made due.
        const nextPoll = Date.now() + POLL_MS;
        while (down && Date.now() < nextPoll && !ctx.signal.aborted) {
          if (await answers(url)) await pause(PROBE_MS);
          else {
            down = undefined;
            const { due } = await admin.flush(hook.id);
            ctx.notice(`target ${url.host} answers again: sending ${due} waiting deliveries`);
          }
        }
        await pause(nextPoll - Date.now());
      }
    } finally {
      await admin.stop(hook.id).catch(() => undefined);
    }
  }

  if (ctx.settings.format === 'ndjson') return { type: 'many', kind: 'generic', items: mapped(attempts(), record) };
  for await (const a of attempts()) ctx.notice(line(a, ctx.settings.tz));
  return { type: 'done' };
}

async function* mapped<T, U>(items: AsyncIterable<T>, f: (t: T) => U): AsyncGenerator<U> {
  for await (const item of items) yield f(item);
}
