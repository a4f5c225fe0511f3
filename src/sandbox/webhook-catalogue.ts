import { PAYMENT_METHODS, PLAN_PERIODS } from '../contract/vocabulary';

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
  const notes = /^(order|refund|subscription)\.notes\.[A-Za-z0-9_-]{1,64}$/.exec(path);
  return PATHS[notes ? `${notes[1]}.notes.*` : path];
}

/** The override paths EVENT takes, for help and refusals. */
export const pathsFor = (event: TriggerEvent): string[] =>
  Object.entries(PATHS)
    .filter(([, spec]) => spec.flows.includes(TRIGGERS[event].flow))
    .map(([path]) => path.replace('*', 'KEY'));

/**
 * Checks an event name and its `path=value` overrides: the overrides as values, or the reason one is
 * refused (an unknown event, an unknown path, a path that does not apply to this event, a bad value).
 */
export function checkTrigger(event: string, sets: readonly string[]): { overrides: Overrides } | { refused: string } {
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
  return { overrides };
}
