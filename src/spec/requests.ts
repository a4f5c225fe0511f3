import * as z from 'zod';
import {
  LIMITS,
  amountInput,
  currencyInput,
  flagInt,
  inrOnly,
  maxChars,
  notesInput,
  queryBool,
  queryInt,
  resourceId,
} from './common';

/** Bodies and queries of spec section 4. The client validates with these before sending; the sandbox with the same. */

const page = {
  count: queryInt(1, LIMITS.count).optional(),
  skip: queryInt(0).optional(),
  from: queryInt(0).optional(),
  to: queryInt(0).optional(),
};

export const OrderListQuery = z.lazy(() =>
  z.object({
    ...page,
    authorized: queryBool.optional(),
    receipt: z.string().optional(),
  }),
);

export const PaymentListQuery = z.lazy(() =>
  z.object(page),
);
export const StatementQuery = z.lazy(() =>
  z.object(page),
);

export const OrderCreateBody = z.lazy(() =>
  z.object({
    amount: amountInput,
    currency: currencyInput,
    receipt: maxChars(LIMITS.receiptChars).optional(),
    payment_capture: z.union([z.boolean(), flagInt.transform((v) => v === 1)]).optional(),
    notes: notesInput.optional(),
  }),
);

export const PLAN_PERIODS = ['daily', 'weekly', 'monthly', 'yearly'] as const;

export const PlanCreateBody = z.lazy(() =>
  z.object({
    period: z.enum(PLAN_PERIODS),
    interval: queryInt(1, 10_000),
    item: z.object({
      name: z.string().min(1).max(255),
      amount: amountInput,
      currency: currencyInput,
      description: z.string().optional(),
    }),
    notes: notesInput.optional(),
  }),
);

export const SubscriptionCreateBody = z.lazy(() =>
  z.object({
    plan_id: resourceId,
    total_count: queryInt(1, 10_000),
    customer_notify: flagInt.optional(),
    start_at: queryInt(0).optional(),
    quantity: queryInt(1).optional(),
    notes: notesInput.optional(),
  }),
);

/** Every field optional: clients of the real service POST an empty body to cancel now. */
export const SubscriptionCancelBody = z.lazy(() =>
  z.object({ cancel_at_cycle_end: flagInt.optional() }),
);

export const CaptureBody = z.lazy(() =>
  z.object({ amount: amountInput, currency: currencyInput }),
);

export const RefundBody = z.lazy(() =>
  z.object({
    amount: amountInput.optional(),
    receipt: maxChars(LIMITS.receiptChars).optional(),
    notes: notesInput.optional(),
    speed: z.enum(['normal', 'optimum']).optional(),
  }),
);

const transferEntry = z.lazy(() =>
  z.object({
    customer: resourceId,
    amount: amountInput,
    currency: inrOnly,
    notes: notesInput.optional(),
  }),
);

/** `transfers` holds exactly one entry (one customer per call); a lone object is accepted as well. */
export const PaymentTransferBody = z.lazy(() =>
  z.object({
    transfers: z.union([z.array(transferEntry).length(1, { message: 'must hold exactly one transfer (one customer per call)' }), transferEntry.transform((t) => [t])]),
  }),
);

export const WalletPaymentBody = z.lazy(() =>
  z.object({
    method: z.literal('wallet'),
    wallet: z.literal('openwallet'),
    customer_id: resourceId,
    order_id: resourceId,
    amount: amountInput,
    currency: inrOnly,
    contact: z.string().min(1),
    email: z.string().min(1),
    description: maxChars(LIMITS.descriptionChars).optional(),
    notes: notesInput.optional(),
  }),
);

export const DirectTransferBody = z.lazy(() =>
  z.object({
    customer_id: resourceId,
    amount: amountInput,
    currency: inrOnly,
    notes: notesInput.optional(),
  }),
);

export const FundAccountBody = z.lazy(() =>
  z.object({
    customer_id: resourceId,
    account_type: z.literal('bank_account'),
    bank_account: z.object({
      name: z.string().min(1).max(120),
      ifsc: z.string().regex(/^[A-Z]{4}0[A-Z0-9]{6}$/, { message: 'must be an 11-character IFSC code' }),
      account_number: z.string().regex(/^\d{5,35}$/, { message: 'must be 5 to 35 digits' }),
    }),
  }),
);

export const NARRATION_PATTERN = /^[A-Za-z0-9 ]*$/;

export const PayoutBody = z.lazy(() =>
  z.object({
    fund_account_id: resourceId,
    purpose: z.string().min(1).max(60),
    amount: amountInput,
    currency: inrOnly,
    notes: notesInput.optional(),
    reference_id: maxChars(LIMITS.referenceIdChars).optional(),
    narration: maxChars(LIMITS.narrationChars)
      .refine((v) => NARRATION_PATTERN.test(v), { message: 'may contain only a-z, A-Z, 0-9 and space' })
      .optional(),
  }),
);

export type OrderListQueryInput = z.input<typeof OrderListQuery>;
export type OrderCreateInput = z.input<typeof OrderCreateBody>;
export type CaptureInput = z.input<typeof CaptureBody>;
export type RefundInput = z.input<typeof RefundBody>;
