import { createHmac } from 'node:crypto';
import type { RouteContext } from './context';
import { SandboxError, notFound } from './errors';
import { base62, newId } from './ids';
import { emitEvent } from './events';
import { accountBalance, balance, customer, move } from './ledger';
import { capture, newPayment } from './payments';
import { publicView } from './store';
import type { Row, Store } from './store';

function newTransfer(
  store: Store,
  now: number,
  fields: {
    source: string;
    recipient: string;
    amount: number;
    notes: unknown;
    status: string;
    parent?: string;
    error?: string;
  },
): Row {
  return store.insert(
    {
      id: newId('trf'),
      entity: 'transfer',
      status: fields.status,
      source: fields.source,
      recipient: fields.recipient,
      amount: fields.amount,
      currency: 'INR',
      amount_reversed: 0,
      fees: 0,
      tax: 0,
      notes: fields.notes ?? {},
      linked_account_notes: [],
      on_hold: false,
      on_hold_until: null,
      settlement_status: fields.status === 'processed' ? 'settled' : null,
      recipient_settlement_id: null,
      created_at: now,
      processed_at: fields.status === 'processed' ? now : null,
      // Typed clients read every key of `error`; the real service sends them all, null when the transfer went through.
      error: {
        code: fields.error ? 'BAD_REQUEST_ERROR' : null,
        description: fields.error ?? null,
        reason: fields.error ? 'insufficient_balance' : null,
        field: fields.error ? 'amount' : null,
        step: fields.error ? 'transfer_processing' : null,
        id: null,
        source: fields.error ? 'business' : null,
        metadata: null,
      },
    },
    { parent: fields.parent },
  );
}

/**
 * Money from the merchant account into a customer's wallet. A refusal for lack of account balance is
 * committed as a failed transfer (with its transfer.failed event) and then answered as an error.
 */
function transferIn(ctx: RouteContext, check: () => string, customerId: string, amount: number, notes: unknown): Row {
  const { store, now } = ctx;
  const outcome = store.tx((): Row | { refused: string } => {
    const source = check();
    const parent = source.startsWith('pay_') ? source : undefined;
    const c = customer(store, customerId, parent ? 'transfers.0.customer' : 'customer_id');
    const available = accountBalance(store);
    if (amount > available) {
      const failed = newTransfer(store, now, {
        source,
        recipient: customerId,
        amount,
        notes,
        status: 'failed',
        parent,
        error: 'insufficient account balance',
      });
      emitEvent(store, now, 'transfer.failed', { transfer: failed });
      return {
        refused: `Transfer failed: the account balance (${available}) is lower than the transfer amount (${amount})`,
      };
    }
    const transfer = newTransfer(store, now, {
      source,
      recipient: customerId,
      amount,
      notes,
      status: 'processed',
      parent,
    });
    move(store, now, c, {
      type: 'transfer',
      source,
      credit: amount,
      description: parent ? `Transfer from payment ${parent}` : 'Cashback',
    });
    emitEvent(store, now, 'transfer.processed', { transfer });
    return transfer;
  });
  if ('refused' in outcome) throw new SandboxError(String(outcome.refused), 400, 'amount');
  return publicView(outcome);
}

export function transferPayment(ctx: RouteContext) {
  const { store, params, body } = ctx;
  const [entry] = body.transfers as Array<{ customer: string; amount: number; currency: string; notes?: unknown }>;
  return transferIn(
    ctx,
    () => {
      const payment = store.get('payment', params.id!);
      if (!payment) throw notFound();
      if (payment.captured !== true)
        throw new SandboxError(
          `Only captured payments can be transferred (status: ${String(payment.status)})`,
          400,
          'id',
        );
      if (payment.currency !== 'INR')
        throw new SandboxError('Transfers are available for INR payments only', 400, 'currency');
      const already = store
        .sql(
          "SELECT COALESCE(SUM(json_extract(data, '$.amount')), 0) AS n FROM records WHERE entity = 'transfer' AND parent = ? AND status = 'processed'",
        )
        .get(payment.id as string) as { n: number };
      const transferable = Number(payment.amount) - Number(payment.amount_refunded ?? 0) - already.n;
      if (entry!.amount > transferable) {
        throw new SandboxError(
          `The transfer amount (${entry!.amount}) is greater than the captured amount left to transfer (${transferable})`,
          400,
          'transfers.0.amount',
        );
      }
      return String(payment.id);
    },
    entry!.customer,
    entry!.amount,
    entry!.notes,
  );
}

export function directTransfer(ctx: RouteContext) {
  const { body } = ctx;
  return transferIn(ctx, () => 'acc_sandbox', String(body.customer_id), Number(body.amount), body.notes);
}

/** Pays an order from the customer's wallet: the payment is captured at once and the wallet debited. */
export function walletPayment({ store, now, config, body }: RouteContext) {
  return store.tx(() => {
    const c = customer(store, String(body.customer_id));
    const order = store.get('order', String(body.order_id));
    if (!order) throw new SandboxError(`The order ${String(body.order_id)} does not exist`, 400, 'order_id');
    if (order.status === 'paid')
      throw new SandboxError('The order has already been paid; no further payments are permitted', 400, 'order_id');
    if (order.currency !== 'INR')
      throw new SandboxError('Wallet payments are available for INR orders only', 400, 'order_id');
    if (Number(body.amount) !== Number(order.amount_due)) {
      throw new SandboxError(
        `The amount (${String(body.amount)}) must equal the amount due on the order (${String(order.amount_due)})`,
        400,
        'amount',
      );
    }
    order.attempts = Number(order.attempts) + 1;
    order.status = 'attempted';
    store.update(order);
    const payment = newPayment(store, now, config.captureWindowSeconds, order, {
      order_id: String(order.id),
      method: 'wallet',
      email: String(body.email),
      contact: String(body.contact),
    });
    payment._wallet_customer = c.id;
    if (body.notes) payment.notes = body.notes;
    if (body.description) payment.description = body.description;
    move(store, now, c, {
      type: 'payment',
      source: String(payment.id),
      debit: Number(body.amount),
      description: `Payment for order ${String(order.id)}`,
    });
    capture(store, now, payment, { amount: payment.amount, currency: payment.currency });
    const signature = createHmac('sha256', store.keys().keySecret)
      .update(`${String(order.id)}|${String(payment.id)}`)
      .digest('hex');
    return { gateway_payment_id: payment.id, gateway_order_id: order.id, gateway_signature: signature };
  });
}

const BANKS: Record<string, string> = {
  HDFC: 'HDFC Bank',
  SBIN: 'State Bank of India',
  ICIC: 'ICICI Bank',
  UTIB: 'Axis Bank',
  KKBK: 'Kotak Mahindra Bank',
};

export function createFundAccount({ store, now, body }: RouteContext) {
  return publicView(
    store.tx(() => {
      customer(store, String(body.customer_id));
      const bank = body.bank_account as { name: string; ifsc: string; account_number: string };
      return store.insert(
        {
          id: newId('fa'),
          entity: 'fund_account',
          customer_id: body.customer_id,
          account_type: 'bank_account',
          bank_account: {
            ifsc: bank.ifsc,
            bank_name: BANKS[bank.ifsc.slice(0, 4)] ?? 'Sandbox Bank',
            name: bank.name,
            notes: [],
            account_number: bank.account_number,
          },
          batch_id: null,
          active: true,
          created_at: now,
        },
        { parent: String(body.customer_id) },
      );
    }),
  );
}

/** Sandbox time a payout spends `processing` before it settles. */
export const PAYOUT_SECONDS = 3_600;
export const PAYOUT_FEE = 500;

/**
 * Sandbox convention, to make reversals testable: a fund account whose account number ends in 0000
 * is rejected by its bank, so payouts to it end `reversed` and the money goes back to the wallet.
 */
export const reversesPayouts = (accountNumber: string) => accountNumber.endsWith('0000');

export function createPayout({ store, now, params, body }: RouteContext) {
  return publicView(
    store.tx(() => {
      const c = customer(store, params.id!, 'id');
      const fa = store.get('fund_account', String(body.fund_account_id));
      if (!fa)
        throw new SandboxError(
          `The fund account ${String(body.fund_account_id)} does not exist`,
          400,
          'fund_account_id',
        );
      if (fa.customer_id !== c.id)
        throw new SandboxError(
          `The fund account ${String(fa.id)} does not belong to customer ${String(c.id)}`,
          400,
          'fund_account_id',
        );
      const payout: Row = {
        id: newId('pout'),
        entity: 'payout',
        customer_id: c.id,
        fund_account_id: fa.id,
        amount: body.amount,
        currency: 'INR',
        notes: body.notes ?? {},
        fees: PAYOUT_FEE,
        tax: Math.round(PAYOUT_FEE * 0.18),
        status: 'processing',
        purpose: body.purpose,
        utr: null,
        mode: 'IMPS',
        reference_id: body.reference_id ?? null,
        narration: body.narration ?? 'Sandbox Merchant',
        batch_id: null,
        failure_reason: null,
        status_details: { description: 'Payout is being processed', source: 'bank', reason: null },
        created_at: now,
        // Fees are charged (fees, tax above), so the payout is not a free one: the real service says null then.
        fee_type: null,
        scheduled_at: null,
        registered_name: null,
        remarks: null,
      };
      move(store, now, c, {
        type: 'payout',
        source: String(payout.id),
        debit: Number(body.amount),
        description: `Payout to ${String(fa.id)}`,
      });
      return store.insert(payout, { parent: String(c.id), due_at: now + PAYOUT_SECONDS });
    }),
  );
}

/** Payouts whose processing time has passed settle: processed with a UTR, or reversed with the money returned. */
export function settlePayouts(store: Store, now: number): void {
  const due = store.due('payout', 'processing', now);
  for (const payout of due) {
    store.tx(() => {
      const fa = store.get('fund_account', String(payout.fund_account_id));
      const at = Math.min(now, Number(payout.created_at) + PAYOUT_SECONDS);
      if (fa && reversesPayouts(String((fa.bank_account as Row).account_number))) {
        payout.status = 'reversed';
        payout.failure_reason =
          'The beneficiary bank rejected the payout (sandbox: account numbers ending in 0000 are rejected)';
        payout.status_details = {
          description: 'Payout was reversed by the beneficiary bank',
          source: 'beneficiary_bank',
          reason: 'beneficiary_bank_rejected',
        };
        const c = store.get('customer', String(payout.customer_id))!;
        move(store, at, c, {
          type: 'reversal',
          source: String(payout.id),
          credit: Number(payout.amount),
          description: `Payout ${String(payout.id)} reversed`,
        });
      } else {
        payout.status = 'processed';
        payout.utr = `SBX${base62(12).toUpperCase()}`;
        payout.status_details = { description: 'Payout processed successfully', source: 'bank', reason: null };
      }
      store.update(payout, null);
      emitEvent(store, at, 'payout.updated', { payout });
    });
  }
}

export const walletBalance = ({ store, params }: RouteContext) => balance(store, params.id!);

export function statement({ store, params, query }: RouteContext) {
  if (!store.get('customer', params.id!)) throw notFound();
  const items = store
    .list('customer_transaction', {
      count: (query.count as number) ?? 10,
      skip: (query.skip as number) ?? 0,
      from: query.from as number,
      to: query.to as number,
      where: 'parent = ?',
      args: [params.id!],
    })
    .map(publicView);
  return { entity: 'collection', count: items.length, items };
}
