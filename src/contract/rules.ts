/** Rules derived from a payment's fields, written once for the client, bulk runs and the sandbox. */
import { ApiError, NoEndpointError } from './errors';
import { LIMITS } from './limits';
import { KEY_NOTE } from './vocabulary';

export { KEY_NOTE };

/**
 * The one rule for the notes a user gives a refund: payctl adds its own key note, so there must be room
 * for it within the service's limit, and the user may not give it. Checked on the whole input before
 * anything is sent (bulk rows, --note, a single refund); undefined when the notes fit.
 */
export function refundNotesProblem(notes: Record<string, unknown> | undefined): string | undefined {
  const own = notes ?? {};
  if (KEY_NOTE in own) return `the note ${KEY_NOTE} is payctl's own (the refund's key)`;
  const limit = LIMITS.notesPairs;
  if (Object.keys(own).length >= limit)
    return (
      `a refund holds at most ${limit} notes and payctl adds one (${KEY_NOTE}, the refund's key): ` +
      `give at most ${limit - 1} (got ${Object.keys(own).length})`
    );
  return undefined;
}

interface PaymentFigures {
  status?: unknown;
  captured?: unknown;
  amount?: unknown;
  amount_refunded?: unknown;
}

/**
 * The money was taken: status `captured`, or `refunded` after a capture (a refund of an authorized
 * payment that was never captured, e.g. by the capture window, leaves `captured` false).
 */
export const isCaptured = (p: PaymentFigures): boolean =>
  p.status === 'captured' || (p.status === 'refunded' && p.captured === true);

/** An amount as the service sends it (a number, or a string of digits on some payloads); undefined if neither. */
export const amountOf = (value: unknown): number | undefined => {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  return typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : undefined;
};

/** What can still be refunded, in the smallest currency unit (a missing figure counts as 0). */
export const refundable = (p: PaymentFigures): number => (amountOf(p.amount) ?? 0) - (amountOf(p.amount_refunded) ?? 0);

const describeValue = (v: unknown) => (v === undefined ? 'missing' : JSON.stringify(v));
const isMinorUnits = (v: unknown) => {
  const n = amountOf(v);
  return n !== undefined && Number.isSafeInteger(n) && n >= 0;
};

/**
 * A record read by its id is the record asked for: the service's answer for another id is never taken
 * (nor shown) as the one asked. Returns the problem, or undefined.
 */
export function identityProblem(r: unknown, askedId: string): string | undefined {
  const id = r !== null && typeof r === 'object' ? (r as { id?: unknown }).id : undefined;
  return id === askedId ? undefined : `the service answered for id ${describeValue(id)} when asked for ${askedId}`;
}

/**
 * The one check of a payment the service sent before any money arithmetic is done with it: the
 * record asked for (its `id`), and amounts that are non-negative integers with `amount_refunded <=
 * amount`. Returns the problem, naming the field, or undefined when the figures can be used.
 */
export function paymentProblem(p: unknown, askedId: string): string | undefined {
  if (p === null || typeof p !== 'object') return `the service sent ${describeValue(p)} for payment ${askedId}`;
  const r = p as Record<string, unknown>;
  const other = identityProblem(r, askedId);
  if (other) return other;
  for (const key of ['amount', 'amount_refunded'] as const)
    if (!isMinorUnits(r[key]))
      return `payment ${askedId}: ${key} is ${describeValue(r[key])}, not a non-negative whole number of minor units`;
  if (amountOf(r.amount_refunded)! > amountOf(r.amount)!)
    return `payment ${askedId}: amount_refunded ${String(r.amount_refunded)} is more than its amount ${String(r.amount)}`;
  return undefined;
}

/** A refund of a payment's list, as far as payctl relies on it: its id, amount and notes. */
export function refundProblem(r: unknown): string | undefined {
  if (r === null || typeof r !== 'object') return `a refund in the list is ${describeValue(r)}`;
  const o = r as Record<string, unknown>;
  if (typeof o.id !== 'string' || !o.id) return `a refund in the list has id ${describeValue(o.id)}`;
  if (!isMinorUnits(o.amount)) return `refund ${o.id}: amount is ${describeValue(o.amount)}`;
  return undefined;
}

/**
 * The service's answer to a refund payctl sent, before it is recorded as that refund: a refund of the
 * payment asked for, of the amount sent. Anything else (another payment's refund, another amount, no
 * id) is an answer payctl cannot read as its own, and the refund is looked for by its key instead.
 */
export function refundAnswerProblem(r: unknown, paymentId: string, amount: number): string | undefined {
  if (r === null || typeof r !== 'object') return `the answer is ${describeValue(r)}`;
  const o = r as Record<string, unknown>;
  if (typeof o.id !== 'string' || !o.id) return `the answer has id ${describeValue(o.id)}`;
  if (o.payment_id !== paymentId)
    return `the answer is refund ${o.id} of payment ${describeValue(o.payment_id)}, not of ${paymentId}`;
  if (amountOf(o.amount) !== amount)
    return `the answer is refund ${o.id} of ${describeValue(o.amount)}, not of the ${amount} sent`;
  return undefined;
}

/**
 * The service's own refusal of a request about a payment because it has no such payment (its error
 * object, as the real service sends it: 400 "The id provided does not exist", about the path's id):
 * proof that nothing was or can be applied to it. The one decision every bulk row (capture, refund;
 * the run, a resume, a recheck) makes of it; undefined for anything else (a lost or hostile answer).
 */
export function noSuchPayment(err: unknown): string | undefined {
  if (!(err instanceof ApiError) || err instanceof NoEndpointError || ![400, 404].includes(err.status))
    return undefined;
  const { description, field } = err.service;
  if (field && field !== 'id') return undefined;
  return /does not exist/i.test(description ?? '') ? 'no such payment; nothing was sent' : undefined;
}
