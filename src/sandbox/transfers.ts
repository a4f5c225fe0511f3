import { INR, isCaptured } from '../contract';
import type { RouteContext } from './context';
import { SandboxError } from './errors';
import { recordEvent } from './events';
import { recordId } from './ids';
import { accountBalance, customer, move } from './ledger';
import { loadPayment } from './payments';
import type { Notes, TransferRecord } from './records';
import type { Store } from './store';
import { publicView } from './views';

interface NewTransfer {
  source: string;
  recipient: string;
  amount: number;
  notes?: Notes;
  status: TransferRecord['status'];
  /** The payment it is made from. */
  parent?: string;
  error?: string;
}

function newTransfer(store: Store, now: number, fields: NewTransfer): TransferRecord {
  const { error } = fields;
  const processed = fields.status === 'processed';
  return store.insert<TransferRecord>(
    {
      id: recordId('transfer'),
      entity: 'transfer',
      status: fields.status,
      source: fields.source,
      recipient: fields.recipient,
      amount: fields.amount,
      currency: INR,
      amount_reversed: 0,
      fees: 0,
      tax: 0,
      notes: fields.notes ?? {},
      linked_account_notes: [],
      on_hold: false,
      on_hold_until: null,
      settlement_status: processed ? 'settled' : null,
      recipient_settlement_id: null,
      created_at: now,
      processed_at: processed ? now : null,
      // Typed clients read every key of `error`; the real service sends them all, null when the transfer went through.
      error: {
        code: error ? 'BAD_REQUEST_ERROR' : null,
        description: error ?? null,
        reason: error ? 'insufficient_balance' : null,
        field: error ? 'amount' : null,
        step: error ? 'transfer_processing' : null,
        id: null,
        source: error ? 'business' : null,
        metadata: null,
      },
    },
    { parent: fields.parent },
  );
}

/**
 * Money from the merchant account into a customer's wallet. A refusal for lack of account balance is
 * committed as a failed transfer (with its transfer.failed event) and then answered as an error.
 * `checkSource` runs inside the transaction and names where the money comes from.
 */
function transferIn(
  { store, now }: { store: Store; now: number },
  checkSource: () => string,
  customerId: string,
  amount: number,
  notes: Notes | undefined,
) {
  const outcome = store.tx((): { transfer: TransferRecord } | { refused: string } => {
    const source = checkSource();
    const parent = source.startsWith('pay_') ? source : undefined;
    const recipient = customer(store, customerId, parent ? 'transfers.0.customer' : 'customer_id');
    const available = accountBalance(store);
    const fields = { source, recipient: customerId, amount, notes, parent };
    if (amount > available) {
      const failed = newTransfer(store, now, { ...fields, status: 'failed', error: 'insufficient account balance' });
      recordEvent(store, now, 'transfer.failed', { transfer: failed });
      return {
        refused: `Transfer failed: the account balance (${available}) is lower than the transfer amount (${amount})`,
      };
    }
    const transfer = newTransfer(store, now, { ...fields, status: 'processed' });
    const description = parent ? `Transfer from payment ${parent}` : 'Cashback';
    move(store, now, recipient, { type: 'transfer', source, credit: amount, description });
    recordEvent(store, now, 'transfer.processed', { transfer });
    return { transfer };
  });
  if ('refused' in outcome) throw new SandboxError(outcome.refused, 400, 'amount');
  return publicView(outcome.transfer);
}

export function transferPayment(ctx: RouteContext<'transferPayment'>) {
  const { store, params, body } = ctx;
  const entry = body.transfers[0]!; // exactly one, as the schema says
  const fromPayment = () => {
    const payment = loadPayment(store, params.id!);
    if (!isCaptured(payment))
      throw new SandboxError(`Only captured payments can be transferred (status: ${payment.status})`, 400, 'id');
    if (payment.currency !== INR)
      throw new SandboxError('Transfers are available for INR payments only', 400, 'currency');
    const transferred = store.sumAmount('transfer', 'processed', payment.id);
    const transferable = payment.amount - payment.amount_refunded - transferred;
    if (entry.amount > transferable) {
      throw new SandboxError(
        `The transfer amount (${entry.amount}) is greater than the captured amount left to transfer (${transferable})`,
        400,
        'transfers.0.amount',
      );
    }
    return payment.id;
  };
  return transferIn(ctx, fromPayment, entry.customer, entry.amount, entry.notes);
}

export const directTransfer = (ctx: RouteContext<'createDirectTransfer'>) =>
  transferIn(ctx, () => 'acc_sandbox', ctx.body.customer_id, ctx.body.amount, ctx.body.notes);
