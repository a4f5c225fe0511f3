import * as z from 'zod/mini';
import type { AdminDeps } from './admin';
import { parse } from './admin';
import { SandboxError, notFound } from './errors';
import { subjectOf, webhookBody } from './events';
import { base62, newId } from './ids';
import { ALIVE_MS } from './webhooks';
import { trigger } from './webhook-trigger';
import {
  attempts,
  dueNow,
  enqueue,
  firstDelivery,
  keepAlive,
  listWebhooks,
  register,
  setDisabled,
  waiting,
  webhookById,
} from './webhook-store';
import type { WebhookRow } from './webhook-store';
import { webhookSecret } from './webhook-tables';
import { sandboxSecret } from '../contract/webhooks/secret';
import type { ListenView, WebhookView } from '../contract/webhooks/views';

const id = z.string().check(z.regex(/^wh_[A-Za-z0-9]+$/, { message: 'is not a webhook id' }));
const ListenBody = z.object({
  url: z.string().check(z.regex(/^https?:\/\/\S+$/, { message: 'is not an http(s) URL' })),
  events: z.optional(z.array(z.string().check(z.maxLength(100)))),
});
const PollBody = z.object({ id, after: z.optional(z.int().check(z.minimum(0))) });
const IdBody = z.object({ id });
const DeliveriesBody = z.object({ event: z.optional(z.string().check(z.maxLength(40))) });
const ReplayBody = z.object({ event_id: z.string().check(z.regex(/^evt_[A-Za-z0-9]+$/)), new_id: z.boolean() });
const TriggerBody = z.object({ event: z.string().check(z.maxLength(100)), set: z.array(z.string()) });

const SecretBody = z.object({ secret: z.optional(z.string()) });

const shown = (w: WebhookRow, store: AdminDeps['store']): WebhookView => ({
  id: w.id,
  kind: w.kind,
  url: w.url,
  events: JSON.parse(w.events) as string[],
  live: w.alive_until > Date.now(),
  disabled_at: w.disabled_at,
  disabled_reason: w.disabled_reason,
  waiting: waiting(store, w.id),
});

function live(store: AdminDeps['store'], webhookId: string) {
  const w = webhookById(store, webhookId);
  if (!w) throw notFound();
  return w;
}

const sandboxMs = ({ clock }: AdminDeps) => clock.now() * 1000;

/** The admin routes of webhooks: listeners' registration and polling, deliveries, replay, trigger. */
export const webhookRoutes = {
  /**
   * A `webhooks listen`: a registration of its own (or a stopped listener's of the same URL, taken
   * over and enabled); what waits for it is due now.
   */
  webhookListen(body: unknown, deps: AdminDeps): ListenView {
    const input = parse(ListenBody, body);
    const { store, clock } = deps;
    const w = register(store, {
      kind: 'listen',
      url: input.url,
      events: input.events ?? [],
      aliveUntil: Date.now() + ALIVE_MS,
      now: clock.now(),
    });
    dueNow(store, w.id, sandboxMs(deps));
    deps.webhooks.wake();
    return { ...shown(w, store), was_disabled: w.was_disabled };
  },
  /** The sandbox's webhook secret, which signs every delivery (what `sandbox start` printed). */
  webhookSecret: (_body: unknown, { store }: AdminDeps) => ({ secret: webhookSecret(store) }),
  /**
   * A new webhook secret (the one given, else a new random one) for every event from now on; queued
   * deliveries and their retries keep the signature they were made with.
   */
  webhookRotateSecret(body: unknown, { store }: AdminDeps) {
    const given = parse(SecretBody, body).secret;
    if (given !== undefined) {
      const checked = sandboxSecret(given, 'secret');
      if (!checked.ok) throw new SandboxError(checked.error, 400, 'secret');
    }
    return { secret: webhookSecret(store, given ?? `whsec_${base62(24)}`) };
  },
  /** The attempts made for a listener since `after`; keeps it live. */
  webhookPoll(body: unknown, deps: AdminDeps) {
    const input = parse(PollBody, body);
    const w = live(deps.store, input.id);
    keepAlive(deps.store, w.id, Date.now() + ALIVE_MS);
    return { webhook: shown(w, deps.store), attempts: attempts(deps.store, { webhook: w.id, after: input.after }) };
  },
  webhookStop(body: unknown, deps: AdminDeps) {
    const w = live(deps.store, parse(IdBody, body).id);
    keepAlive(deps.store, w.id, 0);
    return shown(w, deps.store);
  },
  /** The target answers again: its waiting retries are sent now instead of at their backoff's end. */
  webhookFlush(body: unknown, deps: AdminDeps) {
    const w = live(deps.store, parse(IdBody, body).id);
    const due = dueNow(deps.store, w.id, sandboxMs(deps));
    deps.webhooks.wake();
    return { id: w.id, due };
  },
  webhookEnable(body: unknown, deps: AdminDeps) {
    const w = live(deps.store, parse(IdBody, body).id);
    setDisabled(deps.store, w.id, null, null);
    dueNow(deps.store, w.id, sandboxMs(deps));
    deps.webhooks.wake();
    return shown(webhookById(deps.store, w.id)!, deps.store);
  },
  webhooks: (_body: unknown, { store }: AdminDeps) => ({ items: listWebhooks(store).map((w) => shown(w, store)) }),
  webhookDeliveries(body: unknown, { store }: AdminDeps) {
    const input = parse(DeliveriesBody, body);
    return {
      items: attempts(store, { event: input.event }),
      webhooks: listWebhooks(store).map((w) => shown(w, store)),
    };
  },
  /**
   * Sends an event again to every live webhook: the same bytes, under the same event id or a new one
   * (which a handler that de-duplicates by event id alone applies twice).
   */
  webhookReplay(body: unknown, deps: AdminDeps) {
    const input = parse(ReplayBody, body);
    const { store } = deps;
    const sent = firstDelivery(store, input.event_id);
    const record = sent ? undefined : store.get('event', input.event_id);
    if (!sent && !record) throw new SandboxError(`No event ${input.event_id} in this sandbox`, 400, 'event_id');
    const out = {
      eventId: input.new_id ? newId('evt') : input.event_id,
      sourceEvent: sent?.source_event ?? input.event_id,
      event: sent?.event ?? record!.event,
      subject: sent?.subject ?? subjectOf(record!),
      body: () => sent?.body ?? webhookBody(record!),
    };
    const queued = store.tx(() => enqueue(store, out, sandboxMs(deps), Date.now()));
    if (queued === 0)
      throw new SandboxError('No webhook is listening: start `payctl webhooks listen --forward-to URL` first', 400);
    deps.webhooks.wake();
    return { event_id: out.eventId, replay_of: out.sourceEvent, event: out.event, queued };
  },
  webhookTrigger(body: unknown, deps: AdminDeps) {
    const input = parse(TriggerBody, body);
    deps.runDueWork(deps.clock.now());
    return trigger(deps, input.event, input.set);
  },
};
