import { setTimeout as sleep } from 'node:timers/promises';
import { UsageError } from '../../contract/errors';
import { checkTrigger } from '../../contract/webhooks/catalogue';
import type { Context } from '../context';
import { many } from '../result';
import type { CommandResult } from '../result';
import { secretText } from '../../contract/webhooks/secret';
import { need } from '../flags';
import { sandboxWebhooks } from './admin';
import { secretLine } from './secret';
import type { Attempt } from './admin';

const admin = (ctx: Context) => sandboxWebhooks(ctx);

/** An attempt as the deliveries list shows it: the handler's answer cut to its first bytes. */
const row = (a: Attempt) => ({
  at: new Date(a.at * 1000).toISOString(),
  event_id: a.event_id,
  event: a.event,
  attempt: a.attempt,
  status: a.status ?? a.error,
  latency_ms: a.latency_ms,
  state: a.state,
  response: a.response,
  url: a.url,
});

export interface TriggerOptions {
  event: string;
  set: string[];
}

/** Makes the state change that causes EVENT in the sandbox; an override that does not apply is refused first. */
export async function triggerEvent(opts: TriggerOptions, ctx: Context): Promise<CommandResult> {
  const checked = checkTrigger(opts.event.trim(), opts.set);
  if ('refused' in checked) throw new UsageError(checked.refused);
  const result = await (await admin(ctx)).trigger(opts.event.trim(), opts.set);
  const made = Object.entries(result)
    .filter(([k]) => k.endsWith('_id'))
    .map(([, v]) => String(v));
  ctx.notice(`triggered ${opts.event}: ${made.join(', ')}; events:`);
  return { type: 'lines', lines: result.events.map((e) => `${e.id}  ${e.event}`), json: result };
}

export async function listDeliveries(opts: { event?: string }, ctx: Context): Promise<CommandResult> {
  const { items, webhooks } = await (await admin(ctx)).deliveries(opts.event?.trim());
  for (const w of webhooks.filter((w) => w.disabled_at !== null))
    ctx.notice(
      `webhook ${w.id} (${w.url}) is disabled: ${w.disabled_reason}; enable it: payctl webhooks enable ${w.id}`,
    );
  return many('generic', items.map(row));
}

export interface ReplayOptions {
  eventId: string;
  newId: boolean;
}

/** Sends an event again to every listening webhook, then shows the attempts it made (waits up to 10 s). */
export async function replayEvent(opts: ReplayOptions, ctx: Context): Promise<CommandResult> {
  const id = opts.eventId.trim();
  if (!/^evt_[A-Za-z0-9]+$/.test(id)) throw new UsageError(`EVENT_ID must be an event id (evt_…): got "${id}"`);
  const hooks = await admin(ctx);
  const seen = new Set((await hooks.deliveries(id)).items.map((a) => a.seq));
  const replay = await hooks.replay(id, opts.newId);
  ctx.notice(
    `replaying ${replay.event} ${replay.replay_of}${opts.newId ? ` as ${replay.event_id}` : ''} ` +
      `to ${replay.queued} webhook${replay.queued === 1 ? '' : 's'}`,
  );
  const fresh = async () =>
    (await hooks.deliveries(replay.event_id)).items.filter((a) => !seen.has(a.seq) && a.event_id === replay.event_id);
  let made = await fresh();
  for (let waited = 0; made.length < replay.queued && waited < 10_000 && !ctx.signal.aborted; waited += 200) {
    await sleep(200);
    made = await fresh();
  }
  return many('generic', made.map(row));
}

/** Enables a webhook the sandbox disabled (every disabled one without ID); its waiting deliveries go out. */
export async function enableWebhook(opts: { id?: string }, ctx: Context): Promise<CommandResult> {
  const hooks = await admin(ctx);
  const ids = opts.id
    ? [opts.id.trim()]
    : (await hooks.list()).items.filter((w) => w.disabled_at !== null).map((w) => w.id);
  if (ids.length === 0) return { type: 'done', message: 'no webhook is disabled' };
  const enabled = [];
  for (const id of ids) enabled.push(await hooks.enable(id));
  return many('generic', enabled);
}

/**
 * A new webhook secret for the sandbox: every event from now on is signed with it; deliveries already
 * queued, and their retries, keep the signature they were made with.
 */
export async function rotateSecret(_opts: object, ctx: Context): Promise<CommandResult> {
  const { secret } = await (await admin(ctx)).rotateSecret();
  ctx.notice('new webhook secret: events from now on are signed with it; queued deliveries keep their signature');
  return secretLine(need(secretText(secret, "the sandbox's new webhook secret")));
}
