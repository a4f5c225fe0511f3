import { INR } from '../contract';
import type { RouteContext } from './context';
import { SandboxError } from './errors';
import { recordEvent } from './events';
import { base62, recordId } from './ids';
import { customer, move } from './ledger';
import type { FundAccountRecord, PayoutRecord } from './records';
import type { Store } from './store';
import { publicView } from './views';

const BANKS: Record<string, string> = {
  HDFC: 'HDFC Bank',
  SBIN: 'State Bank of India',
  ICIC: 'ICICI Bank',
  UTIB: 'Axis Bank',
  KKBK: 'Kotak Mahindra Bank',
};

export function createFundAccount({ store, now, body }: RouteContext<'createFundAccount'>) {
  return publicView(
    store.tx(() => {
      customer(store, body.customer_id);
      const bank = body.bank_account;
      return store.insert<FundAccountRecord>(
        {
          id: recordId('fund_account'),
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
        { parent: body.customer_id },
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

export function createPayout({ store, now, params, body }: RouteContext<'createPayout'>) {
  return publicView(
    store.tx(() => {
      const holder = customer(store, params.id!, 'id');
      const account = store.get('fund_account', body.fund_account_id);
      if (!account)
        throw new SandboxError(`The fund account ${body.fund_account_id} does not exist`, 400, 'fund_account_id');
      if (account.customer_id !== holder.id)
        throw new SandboxError(
          `The fund account ${account.id} does not belong to customer ${holder.id}`,
          400,
          'fund_account_id',
        );
      const payout: PayoutRecord = {
        id: recordId('payout'),
        entity: 'payout',
        customer_id: holder.id,
        fund_account_id: account.id,
        amount: body.amount,
        currency: INR,
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
      move(store, now, holder, {
        type: 'payout',
        source: payout.id,
        debit: body.amount,
        description: `Payout to ${account.id}`,
      });
      return store.insert(payout, { parent: holder.id, due_at: now + PAYOUT_SECONDS });
    }),
  );
}

/** Payouts whose processing time (their `due_at`) has passed. */
export const SETTLING_PAYOUTS = ['payout', 'processing'] as const;

/** Payouts whose processing time has passed settle: processed with a UTR, or reversed with the money returned. */
export function settlePayouts(store: Store, now: number): void {
  for (const payout of store.due(...SETTLING_PAYOUTS, now)) {
    store.tx(() => {
      const account = store.get('fund_account', payout.fund_account_id);
      const at = Math.min(now, payout.created_at + PAYOUT_SECONDS);
      if (account && reversesPayouts(account.bank_account.account_number)) {
        payout.status = 'reversed';
        payout.failure_reason =
          'The beneficiary bank rejected the payout (sandbox: account numbers ending in 0000 are rejected)';
        payout.status_details = {
          description: 'Payout was reversed by the beneficiary bank',
          source: 'beneficiary_bank',
          reason: 'beneficiary_bank_rejected',
        };
        move(store, at, customer(store, payout.customer_id), {
          type: 'reversal',
          source: payout.id,
          credit: payout.amount,
          description: `Payout ${payout.id} reversed`,
        });
      } else {
        payout.status = 'processed';
        payout.utr = `SBX${base62(12).toUpperCase()}`;
        payout.status_details = { description: 'Payout processed successfully', source: 'bank', reason: null };
      }
      store.update(payout, null);
      recordEvent(store, at, 'payout.updated', { payout });
    });
  }
}
