import { captureSafely } from '../api/capture';
import type { ApiClient } from '../api/client';
import { ApiError, AuthError, OutcomeUnknownError } from '../api/errors';
import type { BulkItem, BulkOp } from './input';
import type { ItemState } from './journal';

/** `skipped`: nothing needed doing (done in an earlier run, or already captured at the service). */
export type RowResult = 'done' | 'skipped' | 'failed' | 'unknown';

export interface ItemOutcome {
  result: RowResult;
  status?: string;
  amount?: number;
  currency?: string;
  refund_id?: string;
  reason?: string;
}

/** Writes the journal's "sent" record; called right before the first write request goes out. */
export type MarkSent = (amount?: number, currency?: string) => void;

export interface OperationOptions {
  api: ApiClient;
  retryUnknown: boolean;
}

type Payment = Record<string, unknown>;
const getPayment = (api: ApiClient, id: string) => api.call<Payment>('getPayment', { params: { id } });
const isCaptured = (p: Payment) => p.status === 'captured' || (p.status === 'refunded' && p.captured === true);

/** Errors that prove the request was not applied, or refused, become `failed`; a lost answer `unknown`. */
function fromError(err: unknown): ItemOutcome {
  if (err instanceof AuthError) throw err; // every other item would fail the same way: stop the run
  if (err instanceof OutcomeUnknownError) return { result: 'unknown', reason: err.message };
  if (err instanceof ApiError) return { result: 'failed', reason: err.message };
  if (err instanceof Error && 'kind' in err) return { result: 'failed', reason: err.message };
  throw err;
}

async function capture(item: BulkItem, state: ItemState, mark: MarkSent, { api }: OperationOptions): Promise<ItemOutcome> {
  let payment: Payment | undefined;
  const read = async () => (payment = await getPayment(api, item.id));
  try {
    // Sent before with no answer recorded, or no amount given: the payment itself says what to do.
    if (state === 'in_flight' || state === 'unknown' || item.amount === undefined) {
      await read();
      const p = payment!;
      if (isCaptured(p)) {
        const earlier = state === 'in_flight' || state === 'unknown';
        return { result: earlier ? 'done' : 'skipped', status: String(p.status), amount: Number(p.amount), currency: String(p.currency), reason: earlier ? 'captured by the earlier run (read back)' : 'already captured' };
      }
      if (p.status !== 'authorized') {
        return { result: 'failed', status: String(p.status), reason: `only authorized payments can be captured (status: ${String(p.status)})` };
      }
    }
    const amount = item.amount ?? Number(payment!.amount);
    const currency = item.currency ?? String(payment!.currency);
    mark(amount, currency);
    try {
      const outcome = await captureSafely(api, item.id, amount, currency, 6);
      return { result: 'done', status: String(outcome.payment.status), amount, currency, reason: outcome.reconciled ? 'answer lost; read back as captured' : undefined };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // Refused: perhaps because it is captured already (by someone else); look before calling it failed.
      const now = await getPayment(api, item.id).catch(() => undefined);
      if (now && isCaptured(now) && Number(now.amount) === amount) {
        return { result: 'skipped', status: String(now.status), amount, currency, reason: 'already captured' };
      }
      return { result: 'failed', status: now ? String(now.status) : undefined, amount, currency, reason: err.message };
    }
  } catch (err) {
    return { amount: item.amount, currency: item.currency, ...fromError(err) };
  }
}

async function refund(item: BulkItem, state: ItemState, mark: MarkSent, { api, retryUnknown }: OperationOptions): Promise<ItemOutcome> {
  if ((state === 'in_flight' || state === 'unknown') && !retryUnknown) {
    // The interface cannot tell whether a particular refund request was applied: never resend on a guess.
    return {
      result: 'unknown',
      amount: item.amount,
      reason: `sent by an earlier run with no answer recorded: check amount_refunded with \`payctl payments get ${item.id}\`; --retry-unknown sends it again`,
    };
  }
  try {
    const req = api.prepare('refundPayment', { params: { id: item.id }, body: { amount: item.amount, receipt: item.receipt, notes: item.notes } });
    mark(item.amount, item.currency);
    const r = await api.execute<Record<string, unknown>>(req);
    return { result: 'done', status: String(r.status), amount: Number(r.amount), currency: String(r.currency), refund_id: String(r.id) };
  } catch (err) {
    return { amount: item.amount, currency: item.currency, ...fromError(err) };
  }
}

export const operations: Record<BulkOp, (item: BulkItem, state: ItemState, mark: MarkSent, opts: OperationOptions) => Promise<ItemOutcome>> = { capture, refund };
