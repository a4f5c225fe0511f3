import * as z from 'zod/mini';
import { looseInt } from './common';
import { collectionOf, resource } from './record-schema';
import { readingSchema } from './served';

export { collectionOf, resource };

/** The records declared in src/contract/kinds, read as every response is: tolerantly (see `resource`). */
export const Order = readingSchema('order');
export const Payment = readingSchema('payment');
export const Refund = readingSchema('refund');
export const Plan = readingSchema('plan');
export const Subscription = readingSchema('subscription');
export const Transfer = readingSchema('transfer');
export const FundAccount = readingSchema('fund_account');
export const Payout = readingSchema('payout');
export const CustomerTransaction = readingSchema('customer_transaction');
export const Customer = readingSchema('customer');
export const Settlement = readingSchema('settlement');

const n = z.nullish(looseInt);
const s = z.nullish(z.string());

export const WalletBalance = z.lazy(() => z.looseObject({ balance: looseInt, monthly_usage: n, max_balance: n }));

export const WalletPayment = z.lazy(() =>
  z.looseObject({
    gateway_payment_id: z.string(),
    gateway_order_id: z.string(),
    gateway_signature: z.string(),
  }),
);

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
