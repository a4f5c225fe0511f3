import { captureSafely } from '../../client/capture';
import type { ApiClient } from '../../client/client';
import { ApiError, AuthError, OutcomeUnknownError } from '../../contract/errors';
import type { PaymentRecord } from '../../contract/resources';
import { isCaptured, noSuchPayment, paymentProblem } from '../../contract/rules';
import type { BulkItem, BulkOp } from '../../bulk/input';
import type { ItemState } from '../../bulk/journal';
import type { ItemAt, ItemOutcome } from '../../bulk/outcome';
import { printed } from '../invocation';
import type { Invocation } from '../invocation';
import { refundRow } from './refund-row';
import type { RefundRowOptions } from './refund-row';

/** Seam: the client (over any Transport), the flags, and the wait before a read-back (`sleep`, `settleMs`). */
export type OperationOptions = RefundRowOptions;

/**
 * A payment read for a capture decision, checked (contract/rules.ts) before it decides anything. An
 * answer that is not this payment's usable record is no refusal: the row is unknown, with its check.
 */
async function getPayment(api: ApiClient, id: string, inv?: Invocation): Promise<PaymentRecord> {
  const p = await api.call<PaymentRecord>('getPayment', { params: { id } });
  const problem = paymentProblem(p, id);
  if (problem)
    throw new OutcomeUnknownError(
      `its payment could not be read (${problem}); nothing sent now`,
      `check with \`${printed(inv, ['payments', 'get', id])}\``,
    );
  return p;
}
const earlierSent = (state: ItemState) => state === 'in_flight' || state === 'unknown';

/** Errors that prove the request was not applied, or refused, become `failed`; a lost answer `unknown`. */
function fromError(err: unknown): ItemOutcome {
  if (err instanceof AuthError) throw err; // every other item would fail the same way: stop the run
  if (err instanceof OutcomeUnknownError) return { result: 'unknown', reason: `${err.message}: ${err.check}` };
  if (err instanceof ApiError) return { result: 'failed', reason: noSuchPayment(err) ?? err.message };
  if (err instanceof Error && 'kind' in err) return { result: 'failed', reason: err.message };
  throw err;
}

async function capture(
  item: BulkItem,
  { state, mark }: ItemAt,
  { api, recheck, invocation }: OperationOptions,
): Promise<ItemOutcome> {
  let payment: PaymentRecord | undefined;
  const read = async () => (payment = await getPayment(api, item.id, invocation));
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
    await mark({ amount, currency });
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

export const operations: Record<BulkOp, (item: BulkItem, at: ItemAt, opts: OperationOptions) => Promise<ItemOutcome>> =
  { capture, refund: refundRow };
