import type { ApiClient, Prepared } from '../../client/client';
import { ApiError, DuplicateRefundError, FailureError, OutcomeUnknownError, UsageError } from '../../contract/errors';
import {
  IDEMPOTENCY_HEADER,
  KEY_NOTE,
  decideRefund,
  evidenceAfterLoss,
  findRefund,
  notesWithKey,
  remaining,
} from '../../client/refund';
import { resendWaitMs } from '../../client/refund';
import type { RefundBaseline, RefundDecision } from '../../client/refund';
import type { PayctlPaths } from '../../config/paths';
import { lastSend, recordSend } from './refund-sends';
import { KEY_PATTERN, singleKey } from '../../bulk/identity';
import { refundAnswerProblem } from '../../contract/rules';
import { formatMoney } from '../../output/money';
import { stripControl } from '../../output/sanitize';
import { one } from '../result';
import type { CommandResult } from '../result';
import { printed } from '../invocation';
import type { Invocation } from '../invocation';

/** How long the service gets to apply a refund whose answer was lost before its refunds are read. */
const SETTLE_MS = 1_000;
/** An attempt's deadline when the caller names none (the --timeout default). */
const DEFAULT_DEADLINE_MS = 30_000;

export interface RefundRequest {
  /** Undefined: everything that remains (sent as that explicit amount, so what was confirmed is what is sent). */
  amount?: number;
  receipt?: string;
  /** The user's notes; payctl adds `payctl_key`. */
  notes?: Record<string, string>;
  /** The refund's identity: given with --idempotency-key (a rerun), or new for this invocation. */
  key: string;
  /** True when the user gave the key: an earlier invocation may have made this refund already. */
  keyGiven: boolean;
}

/**
 * Seam: what the single refund needs besides the client: a line on stderr, and the wait before a
 * read-back (a simulation passes its own clock's sleep).
 */
export interface SingleRefundEnv {
  notice(message: string): void;
  /** The invocation the printed check and rerun commands name (its service, --yes); see invocation.ts. */
  settings?: Invocation & { timeoutMs?: number };
  sleep?: (ms: number) => Promise<unknown>;
  /** Where each send's time is recorded (refund-sends.ts), so a rerun with its key can tell if it may still arrive. */
  paths?: PayctlPaths;
  nowMs?(): number;
}

/** Seconds to wait, and the moment, in the words a refusal to resend uses. */
const waitUntil = (nowMs: number, waitMs: number) =>
  `after ${new Date(nowMs + waitMs).toISOString().replace(/\.\d+Z$/, 'Z')} (in ${Math.ceil(waitMs / 1000)} s)`;

/** --idempotency-key checked (exit 2), or a new key for this invocation; notes checked for room for it. */
export function refundIdentity(given: string | undefined, notes: Record<string, string> | undefined) {
  if (given !== undefined && !KEY_PATTERN.test(given))
    throw new UsageError('--idempotency-key must be 10 to 64 characters of letters, digits, _ and -: nothing was sent');
  const key = given ?? singleKey();
  notesWithKey(notes, key);
  return { key, keyGiven: given !== undefined };
}

/** The amount to send, checked against what the payment has left: more than remains is exit 2, nothing sent. */
export function refundAmount(baseline: RefundBaseline, amount: number | undefined): number {
  const left = remaining(baseline);
  const money = (v: number) => formatMoney(v, baseline.currency);
  const id = baseline.paymentId;
  const state = `${money(baseline.amount)} paid, ${money(baseline.amountRefunded)} refunded so far`;
  if (left <= 0) throw new UsageError(`${id} has nothing left to refund (${state}): nothing was sent`);
  if (amount !== undefined && amount > left) {
    throw new UsageError(
      `cannot refund ${money(amount)} of ${id}: only ${money(left)} remains (${state}); nothing was sent`,
    );
  }
  return amount ?? left;
}

/** The refund request as it is sent: its amount, and its key in the header and in the notes. */
export function keyedRequest(api: ApiClient, id: string, amount: number, request: RefundRequest): Prepared {
  const req = api.prepare('refundPayment', {
    params: { id },
    body: { amount, receipt: request.receipt, notes: notesWithKey(request.notes, request.key) },
  });
  req.headers = { [IDEMPOTENCY_HEADER]: request.key };
  return req;
}

/** Pure: the exact command that sends this refund again with the same identity (and so the same body). */
export function rerunCommand(id: string, amount: number, request: RefundRequest, inv?: Invocation): string {
  const parts = ['payments', 'refund', id, '--amount', String(amount)];
  if (request.receipt !== undefined) parts.push('--receipt', request.receipt);
  for (const [k, v] of Object.entries(request.notes ?? {})) parts.push('--note', `${k}=${v}`);
  parts.push('--idempotency-key', request.key);
  return printed(inv, parts, { write: true });
}

/**
 * Sends one refund carrying its key (header and `payctl_key` note). With a key the user gave, first
 * looks for a refund carrying it (found: done, nothing sent). If the answer is lost (or 409: still
 * being processed), looks for the key once the service had time: found is applied once (exit 0);
 * anything else is unknown (exit 6) with the key and the exact command to rerun with it. Nothing here
 * ever says "not applied": the request may still land.
 */
export async function refundOnce(
  env: SingleRefundEnv,
  api: ApiClient,
  baseline: RefundBaseline,
  request: RefundRequest,
): Promise<CommandResult> {
  const id = baseline.paymentId;
  const { key } = request;
  const money = (v: number) => formatMoney(v, baseline.currency);
  if (request.keyGiven) {
    // Without the list nothing tells whether the earlier send landed: never sent again on a guess.
    const evidence = await findRefund(api, id, key);
    const now = env.nowMs?.() ?? Date.now();
    const sent = env.paths ? lastSend(env.paths.state, key) : undefined;
    const earlier = decideRefund('resume', evidence, false, resendWaitMs(sent, now));
    if (earlier.action === 'duplicate') throw duplicated(id, earlier);
    if (earlier.action === 'wait')
      throw new OutcomeUnknownError(
        `refund of ${id} with key ${key}: ${earlier.why}`,
        `check with \`${printed(env.settings, ['payments', 'get', id])}\`; run the same command again ` +
          `${waitUntil(now, earlier.waitMs)}: it sends only if no refund carries the key by then`,
      );
    if (earlier.action === 'done') {
      env.notice(`payctl: ${id} was refunded already with key ${key} (${earlier.why}): nothing was sent`);
      return one('refund', await fetched(api, earlier));
    }
    if (earlier.action === 'fail') throw failedUnderKey(env.settings, id, key, `${earlier.why}; nothing was sent now`);
    if (earlier.action !== 'send')
      throw new OutcomeUnknownError(
        `refund of ${id} with key ${key}: ${earlier.why}; nothing was sent now`,
        evidence.kind === 'no_list'
          ? `check amount_refunded with \`${printed(env.settings, ['payments', 'get', id])}\`; only if the earlier refund is not there, ` +
              'run the refund again without --idempotency-key'
          : `run the same command again (with --idempotency-key ${key}) once the service answers`,
      );
  }
  const amount = refundAmount(baseline, request.amount);
  const req = keyedRequest(api, id, amount, request);
  if (env.paths) {
    const sentAtMs = env.nowMs?.() ?? Date.now();
    try {
      recordSend(env.paths.state, key, id, { sentAtMs, deadlineMs: env.settings?.timeoutMs ?? DEFAULT_DEADLINE_MS });
    } catch (err) {
      throw new FailureError(
        `cannot record the refund's send in ${env.paths.state}: ${(err as Error).message}; nothing was sent`,
      );
    }
  }
  let lost: string;
  try {
    const answer = await api.execute(req);
    const unreadable = refundAnswerProblem(answer, id, amount);
    if (!unreadable && (answer as { status?: unknown }).status === 'failed')
      throw failedUnderKey(env.settings, id, key, `the service answers with refund ${String(answer.id)}, which failed`);
    if (!unreadable) return one('refund', answer);
    lost = `its answer could not be read as this refund: ${stripControl(unreadable)}`;
  } catch (err) {
    const inFlight = err instanceof ApiError && err.status === 409;
    if (!(err instanceof OutcomeUnknownError) && !inFlight) throw err;
    lost = inFlight
      ? 'the service says it is still being processed (409)'
      : stripControl((err as OutcomeUnknownError).answer ?? (err as Error).message);
  }
  await (env.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms))))(SETTLE_MS);
  const verdict = decideRefund('lost', await evidenceAfterLoss(api, baseline, amount, key));
  if (verdict.action === 'duplicate') throw duplicated(id, verdict);
  if (verdict.action === 'done') {
    env.notice(
      `payctl: the refund's answer was lost (${lost}); confirmed by reading it back: ${verdict.why}, ` +
        `so the refund of ${money(amount)} was applied once`,
    );
    return one('refund', await fetched(api, verdict, { id, amount, key }));
  }
  if (verdict.action === 'fail')
    throw failedUnderKey(env.settings, id, key, `its answer was lost (${lost}); ${verdict.why}`);
  throw new OutcomeUnknownError(
    `refund of ${money(amount)} of ${id}: outcome unknown (${lost}); ${verdict.why}. Its key: ${key}`,
    `rerun exactly \`${rerunCommand(id, amount, request, env.settings)}\`: it looks for this key first and sends ` +
      `only if no refund carries it (check with \`${printed(env.settings, ['payments', 'get', id])}\` meanwhile)`,
  );
}

/** The refund with this key failed: the service answers the key with it again, so only a new key refunds. */
const failedUnderKey = (inv: Invocation | undefined, id: string, key: string, why: string) =>
  new FailureError(
    `refund of ${id} with key ${key}: ${why}`,
    `run the refund again without --idempotency-key (a new key); \`${printed(inv, ['payments', 'get', id])}\` ` +
      'shows what remains',
  );

/** Exit 7 naming every refund that carries the one key. */
function duplicated(id: string, d: RefundDecision & { action: 'duplicate' }): DuplicateRefundError {
  return new DuplicateRefundError(`refund of ${id}: ${d.why}`);
}

/** The refund found by its key, or what is known of it when it cannot be fetched. */
async function fetched(
  api: ApiClient,
  d: RefundDecision & { action: 'done' },
  fallback?: { id: string; amount: number; key: string },
): Promise<Record<string, unknown>> {
  if (d.refundId) {
    const r = await api
      .call<Record<string, unknown>>('getRefund', { params: { id: d.refundId } })
      .catch(() => undefined);
    if (r) return r;
    return { id: d.refundId, entity: 'refund' };
  }
  return { entity: 'refund', payment_id: fallback?.id, amount: fallback?.amount, notes: { [KEY_NOTE]: fallback?.key } };
}
