import * as z from 'zod/mini';
import { OrderCreateBody, PlanCreateBody, RefundBody, SubscriptionCreateBody } from '../requests';
import { parseNotes } from '../values/notes';
import { ok } from '../values/result';
import type { Result } from '../values/result';
import { PAYMENT_METHODS, PLAN_PERIODS } from '../vocabulary';

/**
 * What `webhooks trigger EVENT` does in the sandbox to cause EVENT (the real state change, so the
 * events that follow from it come too), and the `--set path=value` overrides each accepts. Read by the
 * command, to refuse an override before anything runs, and by the sandbox, which does the change.
 */
export type Flow = 'payment' | 'refund' | 'subscription';

export const TRIGGERS = {
  'payment.authorized': { flow: 'payment', does: 'creates an order and pays it (manual capture)' },
  'payment.captured': { flow: 'payment', does: 'creates an order, pays it and captures the payment' },
  'order.paid': { flow: 'payment', does: 'creates an order, pays it and captures the payment' },
  'payment.failed': { flow: 'payment', does: 'creates an order and declines its payment' },
  'refund.created': { flow: 'refund', does: 'a captured payment, then a refund of it' },
  'refund.processed': { flow: 'refund', does: 'a captured payment, then a refund of it' },
  'refund.failed': { flow: 'refund', does: 'a captured payment, a refund of it, then its failure' },
  'subscription.authenticated': { flow: 'subscription', does: 'a plan, a subscription, its authorisation' },
  'subscription.activated': { flow: 'subscription', does: 'a plan, a subscription, its authorisation' },
  'subscription.charged': { flow: 'subscription', does: 'a plan, a subscription, its first charge' },
  'subscription.completed': { flow: 'subscription', does: 'a one-cycle subscription, charged and completed' },
  'subscription.cancelled': { flow: 'subscription', does: 'a subscription, authorised, then cancelled' },
} as const satisfies Record<string, { flow: Flow; does: string }>;

export type TriggerEvent = keyof typeof TRIGGERS;

type Kind = 'amount' | 'count' | 'text' | readonly string[];

/** Every override path, the flows it applies to, and the values it takes. `notes.*` takes any key. */
const PATHS: Record<string, { flows: readonly Flow[]; kind: Kind }> = {
  'order.amount': { flows: ['payment', 'refund'], kind: 'amount' },
  'order.receipt': { flows: ['payment', 'refund'], kind: 'text' },
  'order.notes.*': { flows: ['payment', 'refund'], kind: 'text' },
  'payment.method': { flows: ['payment', 'refund'], kind: PAYMENT_METHODS },
  'payment.email': { flows: ['payment', 'refund'], kind: 'text' },
  'payment.contact': { flows: ['payment', 'refund'], kind: 'text' },
  'refund.amount': { flows: ['refund'], kind: 'amount' },
  'refund.notes.*': { flows: ['refund'], kind: 'text' },
  'plan.amount': { flows: ['subscription'], kind: 'amount' },
  'plan.period': { flows: ['subscription'], kind: PLAN_PERIODS },
  'plan.name': { flows: ['subscription'], kind: 'text' },
  'subscription.total_count': { flows: ['subscription'], kind: 'count' },
  'subscription.notes.*': { flows: ['subscription'], kind: 'text' },
};

/** Overrides as the sandbox takes them: path to value (numbers for amounts and counts). */
export type Overrides = Record<string, string | number>;

function specOf(path: string) {
  const notes = /^(order|refund|subscription)\.notes\.(.*)$/s.exec(path);
  return PATHS[notes ? `${notes[1]}.notes.*` : path];
}

/** The override paths EVENT takes, for help and refusals. */
export const pathsFor = (event: TriggerEvent): string[] =>
  Object.entries(PATHS)
    .filter(([, spec]) => spec.flows.includes(TRIGGERS[event].flow))
    .map(([path]) => path.replace('*', 'KEY'));

type Json = Record<string, unknown>;

/**
 * What a trigger makes, before any override: text as real records carry it, with a `/` and non-ASCII
 * characters, so the service's bytes of every event differ from JSON.stringify's and a handler that
 * verifies a re-serialized body fails on the first default trigger.
 */
const DEFAULTS = {
  orderAmount: 50_000,
  orderNotes: { merchant_order_id: 'INV/2026/0042', customer: 'Zoë D’Souza' },
  description: 'Order INV/2026/0042 — Café Mysore',
  refundNotes: { reason: 'Returned 1/2 — size too small' },
  planName: 'Gold — ₹499/month',
  planAmount: 49_900,
  subscriptionNotes: { plan: 'Gold ₹499/month', customer: 'Zoë D’Souza' },
  totalCount: 12,
};

/** The requests a trigger sends the sandbox's own endpoints (and checkout), overrides applied. */
export interface TriggerBodies {
  order: Json;
  payment: { method?: string; email?: string; contact?: string; description: string; notes: Record<string, string> };
  refund: Json;
  plan: Json;
  subscription: Json;
}

/** Notes under `prefix.notes.` through the one notes parser, else the defaults. */
function notesOf(o: Overrides, prefix: string, defaults: Record<string, string>) {
  const pairs = Object.entries(o)
    .filter(([k]) => k.startsWith(`${prefix}.notes.`))
    .map(([k, v]) => `${k.slice(prefix.length + 7)}=${v}`);
  return pairs.length ? parseNotes(pairs) : ok(defaults);
}

/** The first problem zod finds with `body`, as `--set` names it, or undefined. */
function problemOf(schema: z.ZodMiniType, body: unknown, prefix: string): string | undefined {
  const parsed = z.safeParse(schema, body);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  const field = issue.path
    .join('.')
    .replace(/^item\.amount$/, 'amount')
    .replace(/^item\.name$/, 'name');
  return `--set ${prefix}.${field}: ${issue.message}`;
}

/** The bodies for `o`, or why the service would refuse one of them: every check before anything is made. */
function bodiesOf(o: Overrides): { bodies: TriggerBodies } | { refused: string } {
  const notes = { order: notesOf(o, 'order', DEFAULTS.orderNotes), refund: notesOf(o, 'refund', DEFAULTS.refundNotes) };
  const subNotes = notesOf(o, 'subscription', DEFAULTS.subscriptionNotes);
  for (const [prefix, parsed] of [...Object.entries(notes), ['subscription', subNotes] as const])
    if (!parsed.ok) return { refused: `--set ${prefix}.notes: ${parsed.error}` };
  const value = <T>(r: Result<T>) => (r.ok ? r.value : ({} as T));
  const orderAmount = (o['order.amount'] as number | undefined) ?? DEFAULTS.orderAmount;
  const bodies: TriggerBodies = {
    order: { amount: orderAmount, currency: 'INR', receipt: o['order.receipt'], notes: value(notes.order) },
    payment: {
      method: o['payment.method'] as string | undefined,
      email: o['payment.email'] as string | undefined,
      contact: o['payment.contact'] as string | undefined,
      description: DEFAULTS.description,
      notes: value(notes.order),
    },
    refund: { amount: o['refund.amount'], notes: value(notes.refund) },
    plan: {
      period: o['plan.period'] ?? 'monthly',
      interval: 1,
      item: {
        name: o['plan.name'] ?? DEFAULTS.planName,
        amount: o['plan.amount'] ?? DEFAULTS.planAmount,
        currency: 'INR',
      },
    },
    subscription: {
      plan_id: 'plan_0000000000000a',
      total_count: o['subscription.total_count'] ?? DEFAULTS.totalCount,
      notes: value(subNotes),
    },
  };
  const problem =
    problemOf(OrderCreateBody, bodies.order, 'order') ??
    problemOf(RefundBody, bodies.refund, 'refund') ??
    problemOf(PlanCreateBody, bodies.plan, 'plan') ??
    problemOf(SubscriptionCreateBody, bodies.subscription, 'subscription');
  if (problem) return { refused: problem };
  if (typeof o['refund.amount'] === 'number' && o['refund.amount'] > orderAmount)
    return {
      refused: `--set refund.amount=${o['refund.amount']}: more than the payment's ${orderAmount} (order.amount); a refund is at most what was captured`,
    };
  return { bodies };
}

/**
 * Checks an event name and its `path=value` overrides: the overrides as values and the requests they
 * make, or the reason one is refused (an unknown event, an unknown path, a path that does not apply to
 * this event, a path given twice, a bad value, a request the service would refuse).
 */
export function checkTrigger(
  event: string,
  sets: readonly string[],
): { overrides: Overrides; bodies: TriggerBodies } | { refused: string } {
  if (!Object.hasOwn(TRIGGERS, event)) {
    return { refused: `cannot trigger "${event}"; events it can: ${Object.keys(TRIGGERS).join(', ')}` };
  }
  const name = event as TriggerEvent;
  const overrides: Overrides = {};
  for (const set of sets) {
    const eq = set.indexOf('=');
    if (eq < 1) return { refused: `--set takes path=value: got "${set}"` };
    const path = set.slice(0, eq).trim();
    const value = set.slice(eq + 1);
    const spec = specOf(path);
    const takes = `${name} takes: ${pathsFor(name).join(', ')}`;
    if (!spec) return { refused: `--set ${path}: no such override; ${takes}` };
    if (!spec.flows.includes(TRIGGERS[name].flow))
      return { refused: `--set ${path} does not apply to ${name} (${TRIGGERS[name].does}); ${takes}` };
    if (Object.hasOwn(overrides, path)) return { refused: `--set ${path} is given twice` };
    const kind = spec.kind;
    if (kind === 'amount' || kind === 'count') {
      if (!/^[1-9]\d{0,11}$/.test(value))
        return {
          refused: `--set ${path}=${value}: ${kind === 'amount' ? 'an amount in paise' : 'a count'} is a whole number above 0`,
        };
      overrides[path] = Number(value);
    } else if (Array.isArray(kind)) {
      if (!kind.includes(value)) return { refused: `--set ${path}=${value}: one of ${kind.join(', ')}` };
      overrides[path] = value;
    } else {
      if (value.length > 255) return { refused: `--set ${path}: at most 255 characters` };
      overrides[path] = value;
    }
  }
  const made = bodiesOf(overrides);
  return 'refused' in made ? made : { overrides, bodies: made.bodies };
}
