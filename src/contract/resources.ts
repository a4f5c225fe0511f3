import * as z from 'zod/mini';
import { looseInt, responseNotes } from './common';
import { collectionOf, resource } from './record-schema';
import { readingSchema } from './served';

export { collectionOf, resource };

const n = z.nullish(looseInt);
const s = z.nullish(z.string());

export const Order = readingSchema('order');

export const Payment = readingSchema('payment');

export const Refund = readingSchema('refund');

export const Plan = readingSchema('plan');

export const Subscription = readingSchema('subscription');

export const Transfer = readingSchema('transfer');

export const FundAccount = resource('fund_account', () => ({
  customer_id: s,
  account_type: s,
  bank_account: z.nullish(
    z.looseObject({ name: s, ifsc: s, account_number: z.nullish(z.union([z.string(), z.number()])) }),
  ),
  active: z.nullish(z.union([z.boolean(), z.string()])),
  created_at: looseInt,
}));

export const Payout = resource('payout', () => ({
  customer_id: s,
  fund_account_id: z.string(),
  amount: looseInt,
  currency: z.string(),
  fees: n,
  tax: n,
  status: z.string(),
  purpose: s,
  utr: s,
  reference_id: s,
  narration: s,
  notes: responseNotes,
  created_at: looseInt,
}));

export const CustomerTransaction = resource('customer_transaction', () => ({
  source: s,
  status: s,
  type: s,
  amount: looseInt,
  currency: s,
  credit: n,
  debit: n,
  balance: looseInt,
  description: s,
  created_at: looseInt,
}));

export const WalletBalance = z.lazy(() => z.looseObject({ balance: looseInt, monthly_usage: n, max_balance: n }));

export const WalletPayment = z.lazy(() =>
  z.looseObject({
    gateway_payment_id: z.string(),
    gateway_order_id: z.string(),
    gateway_signature: z.string(),
  }),
);

export const Customer = readingSchema('customer');

export const Settlement = readingSchema('settlement');

/** A row of the combined settlement report: a payment, refund, adjustment or transfer, by `entity_id`. */
export const ReconEntry = z.lazy(() =>
  z.looseObject({
    entity_id: z.string(),
    type: z.string(),
    credit: looseInt,
    debit: looseInt,
    amount: looseInt,
    fee: n,
    tax: n,
    settlement_id: s,
    settled_at: n,
    created_at: n,
  }),
);

export const ErrorBody = z.lazy(() =>
  z.looseObject({
    error: z.looseObject({
      code: z.string(),
      description: s,
      source: s,
      step: s,
      reason: s,
      field: s,
      metadata: z.optional(z.unknown()),
    }),
  }),
);

export type PaymentRecord = z.infer<typeof Payment>;
export type RefundRecord = z.infer<typeof Refund>;
export type SubscriptionRecord = z.infer<typeof Subscription>;
