import { ApiError, FailureError, UsageError } from '../contract/errors';
import {
  KEY_NOTE,
  amountOf,
  noSuchPayment,
  paymentProblem,
  refundNotesProblem,
  refundable,
  refundProblem,
} from '../contract/rules';
import { INR } from '../contract/vocabulary';
import type { ApiClient } from './client';

/** What a payment allowed just before a refund was sent: checked figures, never taken as they come. */
export interface RefundBaseline {
  paymentId: string;
  status: string;
  amount: number;
  amountRefunded: number;
  currency: string;
}

export const remaining = (b: RefundBaseline) => refundable({ amount: b.amount, amount_refunded: b.amountRefunded });

/** The header the service reads a refund's identity from. */
export const IDEMPOTENCY_HEADER = 'X-Refund-Idempotency';
export { KEY_NOTE };

/** Reads the payment and checks its figures (contract/rules.ts) before any arithmetic: exit 1 naming the field. */
export async function refundBaseline(api: ApiClient, paymentId: string): Promise<RefundBaseline> {
  const b = baselineOf(await api.call<Record<string, unknown>>('getPayment', { params: { id: paymentId } }), paymentId);
  if (typeof b === 'string') throw new FailureError(`${b}; nothing was sent`);
  return b;
}

/** Pure: a payment record as a baseline, or the problem with its figures (naming the field). */
export function baselineOf(p: Record<string, unknown>, paymentId: string): RefundBaseline | string {
  const problem = paymentProblem(p, paymentId);
  if (problem) return problem;
  return {
    paymentId,
    status: String(p.status),
    amount: amountOf(p.amount)!,
    amountRefunded: amountOf(p.amount_refunded)!,
    currency: String(p.currency ?? INR),
  };
}

/** What the service shows about our refund. */
export type RefundEvidence =
  /**
   * The payment's refunds hold one carrying our key. `failed`: it was applied, then failed at the
   * service (its amount went back to the payment): nothing is refunded under this key. `duplicates`:
   * every refund carrying it that did not fail, when more than one does (a service that ignored the
   * idempotency header took the same refund twice).
   */
  | { kind: 'found'; refundId: string; amount: number; failed?: boolean; duplicates?: string[] }
  /** The list was read whole and holds none with our key. */
  | { kind: 'absent' }
  /**
   * The service has no list of a payment's refunds (404, or not a collection). `delta`: the payment's
   * amount_refunded before this very send and now, when both were read.
   */
  | { kind: 'no_list'; delta?: { before: number; after: number; amount: number } }
  /** Nothing could be read (network, a hostile answer): no conclusion either way. */
  | { kind: 'unreadable'; reason: string }
  /** The service's own error object says the payment does not exist (contract/rules.ts noSuchPayment). */
  | { kind: 'no_payment'; why: string };

/**
 * `fresh`: this run has not sent this refund before. `resume`: an earlier run (or invocation, with
 * the same key) sent it and did not learn the outcome. `lost`: sent just now and its answer was lost
 * or ambiguous (timeout, reset, 5xx, a proxy's HTML or empty 4xx, 409 in flight).
 */
export type RefundStage = 'fresh' | 'resume' | 'lost';

export type RefundDecision =
  | { action: 'done'; refundId?: string; why: string }
  /** No refund carries the key yet, but the earlier request may still arrive: nothing is sent before `waitMs`. */
  | { action: 'wait'; waitMs: number; why: string }
  /** More than one refund carries the key: money moved more than once, and a person must look. */
  | { action: 'duplicate'; refundIds: string[]; why: string }
  | { action: 'send'; why: string }
  | { action: 'unknown'; why: string }
  | { action: 'fail'; refundId?: string; why: string };

/**
 * The one decision table of a refund whose outcome is not known from its own answer, shared by the
 * single and the bulk paths (unit-tested case by case). Only a refund carrying our key proves it was
 * applied; only the service's own error object (handled before this) proves refusal. "Not in the
 * list" after a lost answer is unknown: the request may still land.
 */
export function decideRefund(stage: RefundStage, e: RefundEvidence, retryUnknown = false, waitMs = 0): RefundDecision {
  const d = decideOnce(stage, e, retryUnknown);
  // A resend of a refund sent before waits out the earlier request (resendWaitMs), whatever told it to go.
  if (d.action !== 'send' || stage !== 'resume' || waitMs <= 0) return d;
  const seen = e.kind === 'absent' ? 'no refund carries our key yet' : 'the service lists no refunds of a payment';
  return { action: 'wait', waitMs, why: `${seen}, but ${waitWhy(waitMs)}` };
}

/** Pure: how long the earlier request may still arrive, in the words every refusal to resend uses. */
export const waitWhy = (waitMs: number) =>
  `the earlier request may still arrive for ${Math.ceil(waitMs / 1000)} s more: nothing is sent again before then`;

/** When a refund was sent: the moment it left, and its attempt's deadline. */
export interface EarlierSend {
  sentAtMs: number;
  deadlineMs: number;
}

/**
 * The one rule before a refund whose outcome is unknown is taken as not applied because no refund
 * carries its key, and sent again: the first request must no longer be able to arrive. Its connection
 * is closed by then (the attempt gave up at its deadline, or the process that sent it ended), and a
 * quiet period of twice that deadline must have passed since it was sent; a service that ignores the
 * idempotency key would otherwise take a late first request and the resend both. The milliseconds
 * still to wait (0: it may go). Used by the single refund, a bulk resume and an assistant's plan.
 */
export function resendWaitMs(earlier: EarlierSend | undefined, nowMs: number): number {
  if (!earlier || !Number.isFinite(earlier.sentAtMs) || !Number.isFinite(earlier.deadlineMs)) return 0;
  return Math.max(0, earlier.sentAtMs + 2 * earlier.deadlineMs - nowMs);
}

function decideOnce(stage: RefundStage, e: RefundEvidence, retryUnknown: boolean): RefundDecision {
  if (e.kind === 'found' && e.duplicates)
    return { action: 'duplicate', refundIds: e.duplicates, why: duplicateWhy(e.duplicates) };
  // The service answers the same key with this same failed refund: only a new key refunds again.
  if (e.kind === 'found' && e.failed)
    return {
      action: 'fail',
      refundId: e.refundId,
      why: `refund ${e.refundId} carrying our key failed at the service, and its amount went back to the payment`,
    };
  if (e.kind === 'found') return { action: 'done', refundId: e.refundId, why: `refund ${e.refundId} carries our key` };
  // No refund of a payment the service does not have can have been applied, at any stage.
  if (e.kind === 'no_payment') return { action: 'fail', why: e.why };
  // Not even a fresh row is "failed" then: another machine, or an earlier run, may have made it.
  if (e.kind === 'unreadable')
    return stage === 'fresh'
      ? { action: 'unknown', why: `could not look for an earlier refund (nothing sent now): ${e.reason}` }
      : { action: 'unknown', why: `could not read the payment's refunds: ${e.reason}` };
  if (e.kind === 'absent') {
    if (stage === 'fresh') return { action: 'send', why: 'no refund carries our key' };
    if (stage === 'resume')
      return { action: 'send', why: 'no refund carries our key yet: sent again with the same key' };
    return { action: 'unknown', why: 'no refund carries our key yet, and the request may still land' };
  }
  // No list: the payment's amount_refunded, read just before and just after this send, is all there is.
  if (stage === 'fresh') return { action: 'send', why: 'the service lists no refunds of a payment' };
  if (stage === 'resume')
    return retryUnknown
      ? { action: 'send', why: 'sent again with the same key, as asked (--retry-unknown)' }
      : { action: 'unknown', why: 'the service lists no refunds of a payment, so an earlier send cannot be told' };
  const d = e.delta;
  if (!d) return { action: 'unknown', why: 'the payment could not be read back' };
  const figures = `amount_refunded ${d.before} before, ${d.after} now`;
  if (d.after === d.before + d.amount) return { action: 'done', why: `read back as applied (${figures})` };
  if (d.after === d.before)
    return { action: 'unknown', why: `amount_refunded unchanged (${figures}): the request may still land` };
  return { action: 'unknown', why: `amount_refunded moved by another amount than ${d.amount} (${figures})` };
}

/** Pure: what a duplicate is, in the words every report of one uses. */
export const duplicateWhy = (ids: string[]) =>
  `duplicate: ${ids.length} refunds carry this row's key (${ids.join(', ')}); the service took the same ` +
  'refund more than once: see "Duplicates" in the money-safety guide (docs/money-safety.md)';

const PAGE = 100;
const MAX_PAGES = 50;

/**
 * Looks for a refund of `paymentId` carrying `key` (in its `payctl_key` note), walking the list's
 * pages. Never throws: what cannot be read is `unreadable`, and a service without the list `no_list`.
 * A failed refund with the key is the answer only when no other refund carries it (a service that
 * ignores the header may hold both).
 */
export async function findRefund(api: ApiClient, paymentId: string, key: string): Promise<RefundEvidence> {
  // The whole list is read even after a match: a second refund carrying the key is a duplicate to report.
  const carrying: Array<{ id: string; amount: number; failed: boolean }> = [];
  const found = (): RefundEvidence => {
    const live = carrying.filter((r) => !r.failed);
    const [first] = live;
    if (!first) {
      const [failed] = carrying;
      return failed ? { kind: 'found', refundId: failed.id, amount: failed.amount, failed: true } : { kind: 'absent' };
    }
    const duplicates = live.length > 1 ? live.map((r) => r.id) : undefined;
    return { kind: 'found', refundId: first.id, amount: first.amount, ...(duplicates ? { duplicates } : {}) };
  };
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const path = `/payments/${encodeURIComponent(paymentId)}/refunds`;
      const list = await api.request<Record<string, unknown>>('GET', path, { count: PAGE, skip: page * PAGE });
      const items = list && typeof list === 'object' ? list.items : undefined;
      if (!Array.isArray(items)) return { kind: 'no_list' };
      for (const r of items) {
        const problem = refundProblem(r);
        if (problem) return { kind: 'unreadable', reason: problem };
        const o = r as { id: string; amount: unknown; notes?: Record<string, unknown>; payment_id?: unknown };
        if (o.payment_id !== undefined && o.payment_id !== paymentId)
          return { kind: 'unreadable', reason: `refund ${o.id} in the list belongs to ${String(o.payment_id)}` };
        if (o.notes && typeof o.notes === 'object' && o.notes[KEY_NOTE] === key && !carrying.some((c) => c.id === o.id))
          carrying.push({
            id: o.id,
            amount: amountOf(o.amount)!,
            failed: (r as { status?: unknown }).status === 'failed',
          });
      }
      if (items.length < PAGE) return found();
    }
    return carrying.length ? found() : { kind: 'unreadable', reason: `more than ${PAGE * MAX_PAGES} refunds` };
  } catch (err) {
    if (carrying.length) return found(); // what was read proves at least that much
    const none = noSuchPayment(err);
    if (none) return { kind: 'no_payment', why: none };
    if (err instanceof ApiError && err.status === 404) return { kind: 'no_list' };
    return { kind: 'unreadable', reason: (err as Error).message };
  }
}

/** After a lost answer with no list: the payment's amount_refunded now, against the baseline read just before. */
export async function deltaSince(
  api: ApiClient,
  baseline: RefundBaseline,
  amount: number,
): Promise<RefundEvidence & { kind: 'no_list' }> {
  try {
    const now = await refundBaseline(api, baseline.paymentId);
    return { kind: 'no_list', delta: { before: baseline.amountRefunded, after: now.amountRefunded, amount } };
  } catch {
    return { kind: 'no_list' };
  }
}

/** The evidence after a lost answer: the list if the service has one, else the payment's figures. */
export async function evidenceAfterLoss(
  api: ApiClient,
  baseline: RefundBaseline,
  amount: number,
  key: string,
): Promise<RefundEvidence> {
  const e = await findRefund(api, baseline.paymentId, key);
  return e.kind === 'no_list' ? deltaSince(api, baseline, amount) : e;
}

/**
 * The refund's notes with our key added as `payctl_key`: the user's notes keep their place, within
 * the service's limit of notes (exit 2 naming it when no room is left for ours; see refundNotesProblem).
 */
export function notesWithKey(notes: Record<string, string> | undefined, key: string) {
  const problem = refundNotesProblem(notes);
  if (problem) throw new UsageError(`${problem}; nothing was sent`);
  return { ...notes, [KEY_NOTE]: key };
}
