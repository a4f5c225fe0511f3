import { captureSafely } from '../../client/capture';
import type { ApiClient } from '../../client/client';
import { ApiError, AuthError, OutcomeUnknownError } from '../../contract/errors';
import type { PaymentRecord, RefundRecord } from '../../contract/resources';
import { isCaptured } from '../../contract/rules';
import type { BulkItem, BulkOp } from '../../bulk/input';
import type { ItemState } from '../../bulk/journal';
import type { ItemAt, ItemOutcome } from '../../bulk/outcome';
import { reconcileRefund, refundBaseline, remaining } from '../../client/refund';
import type { RefundBaseline, RefundVerdict } from '../../client/refund';

export interface OperationOptions {
  api: ApiClient;
  retryUnknown: boolean;
  /** Only read back what earlier runs sent; send nothing. */
  recheck?: boolean;
  /** Wait before reading back after an ambiguous answer (the service may still be applying it). */
  settleMs?: number;
}

const getPayment = (api: ApiClient, id: string) => api.call<PaymentRecord>('getPayment', { params: { id } });
const earlierSent = (state: ItemState) => state === 'in_flight' || state === 'unknown';

/** Errors that prove the request was not applied, or refused, become `failed`; a lost answer `unknown`. */
function fromError(err: unknown): ItemOutcome {
  if (err instanceof AuthError) throw err; // every other item would fail the same way: stop the run
  if (err instanceof OutcomeUnknownError) return { result: 'unknown', reason: err.message };
  if (err instanceof ApiError) return { result: 'failed', reason: err.message };
  if (err instanceof Error && 'kind' in err) return { result: 'failed', reason: err.message };
  throw err;
}

async function capture(
  item: BulkItem,
  { state, mark }: ItemAt,
  { api, recheck }: OperationOptions,
): Promise<ItemOutcome> {
  let payment: PaymentRecord | undefined;
  const read = async () => (payment = await getPayment(api, item.id));
  try {
    // Sent before with no answer recorded, or no amount given: the payment itself says what to do.
    if (state === 'in_flight' || state === 'unknown' || item.amount === undefined) {
      await read();
      const p = payment!;
      if (isCaptured(p)) {
        const earlier = state === 'in_flight' || state === 'unknown';
        return {
          result: earlier ? 'done' : 'skipped',
          status: p.status,
          amount: Number(p.amount),
          currency: p.currency,
          reason: earlier ? 'captured by the earlier run (read back)' : 'already captured',
        };
      }
      if (recheck)
        return {
          result: earlierSent(state) ? 'unknown' : 'skipped',
          status: p.status,
          reason: `not captured (status ${p.status}); a resume of this journal captures it`,
        };
      if (p.status !== 'authorized') {
        return {
          result: 'failed',
          status: p.status,
          reason: `only authorized payments can be captured (status: ${p.status})`,
        };
      }
    }
    if (recheck) return { result: 'skipped', reason: 'not sent by this journal' };
    const amount = item.amount ?? Number(payment!.amount);
    const currency = item.currency ?? payment!.currency;
    mark(amount, currency);
    try {
      const outcome = await captureSafely(api, item.id, amount, currency, 6);
      return {
        result: 'done',
        status: String(outcome.payment.status),
        amount,
        currency,
        reason: outcome.reconciled ? 'answer lost; read back as captured' : undefined,
      };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // Refused: perhaps because it is captured already (by someone else); look before calling it failed.
      const now = await getPayment(api, item.id).catch(() => undefined);
      if (now && isCaptured(now) && Number(now.amount) === amount) {
        return { result: 'skipped', status: now.status, amount, currency, reason: 'already captured' };
      }
      return { result: 'failed', status: now ? now.status : undefined, amount, currency, reason: err.message };
    }
  } catch (err) {
    return { amount: item.amount, currency: item.currency, ...fromError(err) };
  }
}

/** Reads the payment back and says what the refund `sent` on top of `before` became. */
async function judged(
  api: ApiClient,
  id: string,
  before: number,
  amount: number,
  settleMs: number,
): Promise<ItemOutcome & { verdict: RefundVerdict['result'] }> {
  const baseline: RefundBaseline = { paymentId: id, status: '', amount: 0, amountRefunded: before, currency: '' };
  const v = await reconcileRefund(api, baseline, amount, (ms) => new Promise((r) => setTimeout(r, ms)), settleMs);
  const figures = `amount_refunded ${v.before} before, ${v.after ?? 'unreadable'} now`;
  if (v.result === 'applied')
    return { result: 'done', verdict: v.result, amount, reason: `answer lost; read back as applied (${figures})` };
  const reason =
    v.result === 'not_applied'
      ? `not applied (${figures}): --retry-unknown sends it again`
      : `${v.reason} (${figures}): check with \`payctl payments get ${id}\`; it is never resent automatically`;
  return { result: 'unknown', verdict: v.result, amount, reason };
}

async function refund(
  item: BulkItem,
  at: ItemAt,
  { api, retryUnknown, recheck, settleMs = 1_000 }: OperationOptions,
): Promise<ItemOutcome> {
  const { state, previous } = at;
  if (state === 'in_flight' || state === 'unknown') {
    if (previous?.amount === undefined || previous.amount_refunded === undefined) {
      // A journal from an older payctl: nothing to judge by, so never resend on a guess.
      return {
        result: 'unknown',
        amount: item.amount,
        reason:
          'sent by an earlier run with no answer recorded: ' +
          `check amount_refunded with \`payctl payments get ${item.id}\``,
      };
    }
    const earlier = await judged(api, item.id, previous.amount_refunded, previous.amount, 0);
    if (earlier.result === 'done')
      return {
        ...earlier,
        reason:
          'applied by the earlier run (read back: amount_refunded ' +
          `${previous.amount_refunded} -> ${previous.amount_refunded + previous.amount})`,
      };
    if (earlier.verdict !== 'not_applied' || !retryUnknown || recheck) return earlier;
  }
  if (recheck) return { result: 'skipped', reason: 'not sent by this journal' };
  let baseline: RefundBaseline;
  try {
    baseline = await refundBaseline(api, item.id);
  } catch (err) {
    return {
      amount: item.amount,
      currency: item.currency,
      ...fromError(err),
      reason: `could not read the payment before refunding, nothing sent: ${(err as Error).message}`,
    };
  }
  if (
    state === 'failed' &&
    previous?.amount !== undefined &&
    previous.amount_refunded !== undefined &&
    baseline.amountRefunded !== previous.amount_refunded
  ) {
    // Sent before and recorded as failed, yet the payment moved since: never send it on top.
    const figures =
      `amount_refunded ${previous.amount_refunded} when the earlier run sent ${previous.amount}, ` +
      `${baseline.amountRefunded} now`;
    if (baseline.amountRefunded === previous.amount_refunded + previous.amount)
      return {
        result: 'done',
        status: baseline.status,
        amount: previous.amount,
        reason: `the earlier run's refund shows as applied (${figures})`,
      };
    return {
      result: 'unknown',
      verdict: 'unknown',
      status: baseline.status,
      amount: item.amount,
      reason:
        `the payment changed since the earlier run sent it (${figures}): ` +
        `check with \`payctl payments get ${item.id}\`; it is never resent automatically`,
    };
  }
  let amount = item.amount;
  if (baseline.status === 'captured' || baseline.status === 'refunded') {
    const left = remaining(baseline);
    const held = `amount_refunded ${baseline.amountRefunded} of ${baseline.amount}`;
    const refused =
      left <= 0
        ? `nothing left to refund (${held}); nothing sent`
        : amount !== undefined && amount > left
          ? `${amount} is more than the ${left} that remains to refund (${held}); nothing sent`
          : undefined;
    if (refused) return { result: 'failed', status: baseline.status, amount, reason: refused };
    amount ??= left; // "all that remains", fixed now so that an ambiguous answer can be judged
  }
  try {
    const req = api.prepare('refundPayment', {
      params: { id: item.id },
      body: { amount, receipt: item.receipt, notes: item.notes },
    });
    at.mark(amount, item.currency ?? baseline.currency, baseline.amountRefunded);
    const r = await api.execute<RefundRecord>(req);
    return {
      result: 'done',
      status: String(r.status),
      amount: Number(r.amount),
      currency: r.currency,
      refund_id: r.id,
    };
  } catch (err) {
    if (err instanceof AuthError || err instanceof ApiError || amount === undefined || !at.wasSent())
      return { amount, currency: item.currency, ...fromError(err) };
    return { currency: baseline.currency, ...(await judged(api, item.id, baseline.amountRefunded, amount, settleMs)) };
  }
}

export const operations: Record<BulkOp, (item: BulkItem, at: ItemAt, opts: OperationOptions) => Promise<ItemOutcome>> =
  { capture, refund };
