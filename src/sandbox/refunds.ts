import { isCaptured, refundable } from '../contract';
import type { RouteContext } from './context';
import { SandboxError } from './errors';
import { recordEvent } from './events';
import { replayed, requestDigest } from './idempotency';
import { base62, recordId } from './ids';
import { move } from './ledger';
import { loadPayment } from './payments';
import type { Notes, PaymentRecord, RefundRecord } from './records';
import { settlementDue } from './settlements';
import type { Store } from './store';
import { publicView } from './views';

interface RefundRequest {
  amount?: number;
  receipt?: string;
  notes?: Notes;
  speed?: 'normal' | 'optimum';
}

function newRefund(
  store: Store,
  now: number,
  payment: PaymentRecord,
  amount: number,
  request: RefundRequest,
  status: 'pending' | 'processed' = 'processed',
) {
  return store.insert<RefundRecord>(
    {
      id: recordId('refund'),
      entity: 'refund',
      amount,
      currency: payment.currency,
      payment_id: payment.id,
      notes: request.notes ?? {},
      receipt: request.receipt ?? null,
      acquirer_data: { arn: `ARN${base62(12).toUpperCase()}` },
      created_at: now,
      batch_id: null,
      status,
      speed_processed: 'normal',
      speed_requested: request.speed ?? 'normal',
    },
    { parent: payment.id },
  );
}

/** Sandbox refunds are processed at once: both events of the real service's refund, one after the other. */
function recordRefundEvents(store: Store, now: number, refund: RefundRecord, payment: PaymentRecord) {
  recordEvent(store, now, 'refund.created', { refund, payment });
  recordEvent(store, now, 'refund.processed', { refund, payment });
}

/**
 * Refunds `request.amount` (all that is left when absent) of a captured payment. `pending`: the refund
 * stays with the service, as a real one does until its bank answers (only `refund.created` is sent, and
 * nothing falls due for settlement); `refund-failure.ts` is what ends it.
 */
export function refund(
  store: Store,
  now: number,
  payment: PaymentRecord,
  request: RefundRequest,
  pending = false,
): RefundRecord {
  if (!isCaptured(payment))
    throw new SandboxError(`Only captured payments can be refunded (status: ${payment.status})`);
  const remaining = refundable(payment);
  if (remaining <= 0) throw new SandboxError('The payment has been fully refunded already');
  const amount = request.amount ?? remaining;
  if (amount > remaining) {
    throw new SandboxError(
      `The refund amount provided (${amount}) is greater than the amount remaining to be refunded (${remaining})`,
      400,
      'amount',
    );
  }
  const record = newRefund(store, now, payment, amount, request, pending ? 'pending' : 'processed');
  if (!pending) store.update(record, settlementDue(now));
  payment.amount_refunded += amount;
  const full = payment.amount_refunded === payment.amount;
  payment.refund_status = full ? 'full' : 'partial';
  if (full) payment.status = 'refunded';
  store.update(payment);
  store.countApplied(payment.id, 'refund', amount);
  if (pending) recordEvent(store, now, 'refund.created', { refund: record, payment });
  else recordRefundEvents(store, now, record, payment);
  const walletCustomer = payment._wallet_customer ? store.get('customer', payment._wallet_customer) : undefined;
  if (walletCustomer) {
    // A wallet payment's refund goes back into the wallet it came from.
    move(store, now, walletCustomer, {
      type: 'refund',
      source: record.id,
      credit: amount,
      description: `Refund of payment ${payment.id}`,
    });
  }
  return record;
}

/** Authorized payments whose capture window (their `due_at`) has passed. */
export const EXPIRING = ['payment', 'authorized'] as const;

/** Authorized payments left past the capture window are refunded automatically (spec 3.2). */
export function refundExpiredAuthorizations(store: Store, now: number): void {
  const expired = store.due(...EXPIRING, now);
  if (!expired.length) return;
  store.tx(() => {
    for (const payment of expired) {
      payment.status = 'refunded';
      payment.amount_refunded = payment.amount;
      payment.refund_status = 'full';
      payment._auto_refunded = true;
      const record = newRefund(store, now, payment, payment.amount, {
        notes: { reason: 'not captured within the capture window' },
      });
      store.update(payment, null);
      recordRefundEvents(store, now, record, payment);
    }
  });
}

/**
 * A refund request. Under an idempotency key, the key is looked up and recorded in the refund's own
 * transaction: a repeat of the same request answers the refund the key made, and nothing moves again.
 */
export function refundRoute({ store, now, params, body, refundKey }: RouteContext<'refundPayment'>) {
  const paymentId = params.id!;
  return publicView(
    store.tx(() => {
      if (!refundKey) return refund(store, now, loadPayment(store, paymentId), body);
      const digest = requestDigest(paymentId, body);
      const first = replayed(store, refundKey, digest);
      if (first) return first;
      const made = refund(store, now, loadPayment(store, paymentId), body);
      store.saveRefundKey(refundKey.merchant, refundKey.key, digest, made.id);
      return made;
    }),
  );
}
