import type { ApiClient } from '../../client/client';
import {
  IDEMPOTENCY_HEADER,
  decideRefund,
  evidenceAfterLoss,
  findRefund,
  baselineOf,
  notesWithKey,
  remaining,
  resendWaitMs,
} from '../../client/refund';
import type { RefundDecision, RefundEvidence, RefundStage } from '../../client/refund';
import { ApiError, AuthError, OutcomeUnknownError } from '../../contract/errors';
import { noSuchPayment, refundAnswerProblem } from '../../contract/rules';
import type { RefundRecord } from '../../contract/resources';
import type { BulkItem } from '../../bulk/input';
import type { ItemAt, ItemOutcome } from '../../bulk/outcome';
import { printed } from '../invocation';
import type { Invocation } from '../invocation';

/** What a bulk refund needs besides the row: the client, the flags, and (seam) how to wait. */
export interface RefundRowOptions {
  api: ApiClient;
  retryUnknown: boolean;
  recheck?: boolean;
  /** How long the service gets to apply a refund whose answer was lost before it is looked for. */
  settleMs?: number;
  /** Seam: the wait before that look (a simulation passes its own clock's). */
  sleep?: (ms: number) => Promise<unknown>;
  /** The invocation the check commands in row reasons name (its service); see invocation.ts. */
  invocation?: Invocation;
  /** The attempt's deadline (--timeout), recorded with each send; and the clock a resend is judged by. */
  deadlineMs?: number;
  nowMs?: () => number;
}

/** The command a row's reason names to look at its payment. */
const getCommand = (opts: RefundRowOptions, id: string) => printed(opts.invocation, ['payments', 'get', id]);

const realSleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function fromDecision(d: RefundDecision, stage: RefundStage, item: BulkItem, opts: RefundRowOptions): ItemOutcome {
  if (d.action === 'done')
    return stage === 'fresh'
      ? { result: 'skipped', refund_id: d.refundId, reason: `refunded already with this run's key (${d.why})` }
      : { result: 'done', refund_id: d.refundId, reason: `applied (${d.why})` };
  if (d.action === 'fail')
    return d.refundId
      ? { result: 'failed', refund_id: d.refundId, reason: `${d.why}: a new run (--new-run) refunds it again` }
      : { result: 'failed', reason: d.why };
  if (d.action === 'duplicate') return { result: 'duplicate', refund_id: d.refundIds.join(' '), reason: d.why };
  return {
    result: 'unknown',
    verdict: 'unknown',
    reason: `${d.why}: check with \`${getCommand(opts, item.id)}\`; a resume looks for its key again`,
  };
}

/**
 * A refusal (ours: more than remains; or the service's) may be because this very refund landed since
 * the look before sending: look for its key once more before calling the row failed.
 */
async function afterRefusal(
  opts: RefundRowOptions,
  item: BulkItem,
  key: string,
  failed: ItemOutcome,
): Promise<ItemOutcome> {
  const again = await findRefund(opts.api, item.id, key);
  // The look itself failed: the refusal may be our own refund's doing, so the row is not called failed.
  if (again.kind === 'unreadable')
    return {
      ...failed,
      result: 'unknown',
      reason: `${failed.reason}; our key could not be looked for: ${again.reason}`,
    };
  if (again.kind !== 'found' || again.failed) return failed;
  if (again.duplicates) return { ...failed, ...fromDecision(decideRefund('lost', again), 'lost', item, opts) };
  return {
    ...failed,
    result: 'done',
    refund_id: again.refundId,
    reason: `applied (refund ${again.refundId} carries our key)`,
  };
}

/**
 * A row an earlier run finished, read back on a resume or recheck: one refund carrying its key is
 * done as recorded; more than one is a duplicate to report. Nothing is ever sent for it.
 */
async function doneBefore(item: BulkItem, key: string | undefined, opts: RefundRowOptions): Promise<ItemOutcome> {
  const skipped: ItemOutcome = { result: 'skipped', reason: 'done by an earlier run (journal)' };
  if (!key) return skipped;
  const evidence = await findRefund(opts.api, item.id, key);
  if (evidence.kind !== 'found' || !evidence.duplicates)
    return { ...skipped, refund_id: evidence.kind === 'found' ? evidence.refundId : undefined };
  return {
    amount: item.amount,
    currency: item.currency,
    ...fromDecision(decideRefund('resume', evidence), 'resume', item, opts),
  };
}

/**
 * A row the service refused, read back by a recheck: the same input run on another machine at once
 * may have sent the row under the same key, and that send may have landed since. Nothing is sent.
 */
async function refusedBefore(item: BulkItem, key: string, opts: RefundRowOptions): Promise<ItemOutcome> {
  const evidence = await findRefund(opts.api, item.id, key);
  const money = { amount: item.amount, currency: item.currency };
  if (evidence.kind === 'unreadable')
    return {
      ...money,
      result: 'unknown',
      reason: `refused when sent; our key could not be looked for: ${evidence.reason}`,
    };
  if (evidence.kind !== 'found' || evidence.failed)
    return { ...money, result: 'failed', reason: 'refused by the service when sent, and no refund carries its key' };
  if (evidence.duplicates) return { ...money, ...fromDecision(decideRefund('resume', evidence), 'resume', item, opts) };
  return {
    ...money,
    result: 'done',
    refund_id: evidence.refundId,
    reason: `refused when sent, yet refund ${evidence.refundId} carries its key (another run of this input made it)`,
  };
}

/**
 * One bulk refund by identity: first look for a refund carrying the row's key (a second machine, or
 * an earlier run, may have made it: then nothing is sent), else send it with the key in the header and
 * in its notes; after a lost answer look for the key again, and what is not found stays unknown.
 */
export async function refundRow(item: BulkItem, at: ItemAt, opts: RefundRowOptions): Promise<ItemOutcome> {
  const { api, recheck } = opts;
  const key = at.key;
  if (at.state === 'done') return doneBefore(item, key, opts);
  const stage: RefundStage = at.state === 'in_flight' || at.state === 'unknown' ? 'resume' : 'fresh';
  const sentBefore = stage === 'resume' || at.previous !== undefined;
  if (recheck && stage === 'fresh')
    return at.state === 'failed' && key && at.previous
      ? refusedBefore(item, key, opts)
      : { result: 'skipped', reason: 'not sent by this journal' };
  const evidence: RefundEvidence = key ? await findRefund(api, item.id, key) : { kind: 'no_list' };
  const before = decideRefund(stage, evidence, opts.retryUnknown && !recheck, waitFor(at, opts));
  if (before.action !== 'send')
    return { amount: item.amount, currency: item.currency, ...fromDecision(before, stage, item, opts) };
  if (recheck)
    return {
      result: 'unknown',
      amount: item.amount,
      reason: `${evidence.kind === 'absent' ? 'no refund carries its key yet' : before.why}; a resume of this journal sends it again with the same key`,
    };
  if (!key)
    return {
      result: 'unknown',
      amount: item.amount,
      reason: 'sent by an older payctl with no key: check it with `payctl payments get`',
    };

  let read: Record<string, unknown>;
  try {
    read = await api.call<Record<string, unknown>>('getPayment', { params: { id: item.id } });
  } catch (err) {
    if (err instanceof AuthError) throw err;
    const none = noSuchPayment(err);
    if (none) return { result: 'failed', amount: item.amount, currency: item.currency, reason: none };
    // A row sent before stays unknown: called failed, the next resume would take it as never sent. So
    // does one whose payment could not be read (not refused by the service): another run of this input
    // (another machine) may have refunded it with the same key, and a resume looks for that key.
    const refusal = err instanceof ApiError;
    const others = refusal ? '' : '; another run of this input may have refunded it: a resume looks for its key';
    return {
      result: sentBefore || !refusal ? 'unknown' : 'failed',
      amount: item.amount,
      currency: item.currency,
      reason: `nothing sent now: ${(err as Error).message}${others}`,
    };
  }
  const baseline = baselineOf(read, item.id);
  // An answer that is not this payment's usable record is no refusal: another run of this input may
  // have refunded it under the same key, so the row is unknown, with its check, never failed.
  if (typeof baseline === 'string')
    return {
      result: 'unknown',
      amount: item.amount,
      currency: item.currency,
      reason:
        `nothing sent now: its payment could not be read (${baseline}); check with ` +
        `\`${getCommand(opts, item.id)}\`; a resume looks for its key again`,
    };
  let amount = item.amount;
  const left = remaining(baseline);
  const held = `amount_refunded ${baseline.amountRefunded} of ${baseline.amount}`;
  const refused =
    left <= 0
      ? `nothing left to refund (${held}); nothing sent`
      : amount !== undefined && amount > left
        ? `${amount} is more than the ${left} that remains to refund (${held}); nothing sent`
        : undefined;
  // Where the service lists no refunds, too little left may be this row's own refund, made by an
  // earlier run or by another machine with the same input (the same key): sent with that key, the
  // service judges by identity. One that honours the key answers with that refund; any service refuses
  // an amount above what remains with its own error object, so nothing can move twice.
  const byKey = refused !== undefined && evidence.kind === 'no_list' && amount !== undefined;
  const unprovable = (why: string): ItemOutcome => ({
    result: 'unknown',
    status: baseline.status,
    amount,
    currency: item.currency ?? baseline.currency,
    reason:
      `${why}: this service lists no refunds, so whether an earlier run of this input (here or on another ` +
      `machine) made it cannot be checked; check with \`${getCommand(opts, item.id)}\``,
  });
  if (refused && !byKey)
    return evidence.kind === 'no_list'
      ? unprovable(refused)
      : afterRefusal(opts, item, key, { result: 'failed', status: baseline.status, amount, reason: refused });
  if (!byKey && stage === 'resume' && evidence.kind === 'no_list' && at.previous?.amount_refunded !== undefined) {
    // --retry-unknown where the service lists no refunds: only onto a payment unchanged since the earlier send.
    const then = at.previous.amount_refunded;
    if (baseline.amountRefunded !== then)
      return {
        result: 'unknown',
        amount,
        reason:
          `the payment moved since the earlier send (amount_refunded ${then} then, ${baseline.amountRefunded} now): ` +
          `never sent again; check with \`${getCommand(opts, item.id)}\``,
      };
  }
  amount ??= left; // "all that remains", fixed now: what is sent is what a read-back is judged by
  const currency = item.currency ?? baseline.currency;
  let notes: Record<string, string>;
  try {
    notes = notesWithKey(item.notes, key);
  } catch (err) {
    return { result: 'failed', amount, currency, reason: (err as Error).message };
  }
  const req = api.prepare('refundPayment', {
    params: { id: item.id },
    body: { amount, receipt: item.receipt, notes },
  });
  req.headers = { [IDEMPOTENCY_HEADER]: key };
  await at.mark({ amount, currency, amountRefunded: baseline.amountRefunded, key, deadlineMs: opts.deadlineMs });
  let lost: string;
  try {
    const r = await api.execute<RefundRecord>(req);
    const unreadable = refundAnswerProblem(r, item.id, amount);
    if (unreadable) throw new AnswerNotOurs(unreadable);
    if (byKey && stage === 'fresh')
      return {
        result: 'skipped',
        status: String(r.status),
        amount: Number(r.amount),
        currency: r.currency,
        refund_id: r.id,
        reason: `refunded already with this run's key (the service answered it with refund ${r.id}; ${refused})`,
      };
    return {
      result: 'done',
      status: String(r.status),
      amount: Number(r.amount),
      currency: r.currency,
      refund_id: r.id,
    };
  } catch (err) {
    if (err instanceof AuthError) throw err;
    const inFlight = err instanceof ApiError && err.status === 409;
    if (err instanceof ApiError && !inFlight) {
      // A service that ignores the key refuses our own earlier refund's row too: no proof of whose it was.
      if (byKey) return unprovable(`${err.message} (${refused})`);
      return afterRefusal(opts, item, key, { result: 'failed', amount, currency, reason: err.message });
    }
    if (err instanceof AnswerNotOurs) lost = `its answer could not be read as this refund (${err.message})`;
    else if (inFlight) lost = 'the service says it is still being processed (409)';
    else if (err instanceof OutcomeUnknownError) lost = 'its answer was lost';
    else throw err;
  }
  await (opts.sleep ?? realSleep)(opts.settleMs ?? 1_000);
  const after = decideRefund('lost', await evidenceAfterLoss(api, baseline, amount, key));
  const outcome = fromDecision(after, 'lost', item, opts);
  return { ...outcome, amount, currency, reason: `${lost}; ${outcome.reason}` };
}

/** How long the earlier send of a row may still arrive (client/refund.ts resendWaitMs); 0 for a row never sent. */
function waitFor(at: ItemAt, opts: RefundRowOptions): number {
  const prev = at.previous;
  if (!prev || (at.state !== 'in_flight' && at.state !== 'unknown')) return 0;
  const deadlineMs = prev.deadline_ms ?? opts.deadlineMs ?? 30_000;
  return resendWaitMs({ sentAtMs: Date.parse(prev.at), deadlineMs }, (opts.nowMs ?? Date.now)());
}

/** A 2xx answer that is not the refund just sent: its outcome is found by the key, as a lost answer's is. */
class AnswerNotOurs extends Error {}
