import * as z from 'zod/mini';
import { LIMITS } from './limits';
import { PLAN_PERIODS } from './vocabulary';
import {
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

export const page = () => ({
  count: z.optional(queryInt(1, LIMITS.count)),
  skip: z.optional(queryInt(0)),
  from: z.optional(queryInt(0)),
  to: z.optional(queryInt(0)),
});

export const OrderListQuery = z.lazy(() =>
  z.object({
    ...page(),
    authorized: z.optional(queryBool),
    receipt: z.optional(z.string()),
  }),
);

export const PaymentListQuery = z.lazy(() => z.object(page()));
export const StatementQuery = z.lazy(() => z.object(page()));
export const RefundListQuery = z.lazy(() => z.object(page()));
export const SettlementListQuery = z.lazy(() => z.object(page()));
/** The combined settlement report of a month, or of one day of it. */
export const SettlementReconQuery = z.lazy(() =>
  z.object({
    year: queryInt(2000, 2100),
    month: queryInt(1, 12),
    day: z.optional(queryInt(1, 31)),
    count: z.optional(queryInt(1, LIMITS.count)),
    skip: z.optional(queryInt(0)),
  }),
);

export const OrderCreateBody = z.lazy(() =>
  z.object({
    amount: amountInput,
    currency: currencyInput,
    receipt: z.optional(maxChars(LIMITS.receiptChars)),
    payment_capture: z.optional(
      z.union([
        z.boolean(),
        z.pipe(
          flagInt,
          z.transform((v) => v === 1),
        ),
      ]),
    ),
    notes: z.optional(notesInput),
  }),
);

export const PlanCreateBody = z.lazy(() =>
  z.object({
    period: z.enum(PLAN_PERIODS),
    interval: queryInt(1, 10_000),
    item: z.object({
      name: z.string().check(z.minLength(1), z.maxLength(255)),
      amount: amountInput,
      currency: currencyInput,
      description: z.optional(z.string()),
    }),
    notes: z.optional(notesInput),
  }),
);

export const SubscriptionCreateBody = z.lazy(() =>
  z.object({
    plan_id: resourceId,
    customer_id: z.optional(resourceId),
    total_count: queryInt(1, 10_000),
    customer_notify: z.optional(flagInt),
    start_at: z.optional(queryInt(0)),
    quantity: z.optional(queryInt(1)),
    notes: z.optional(notesInput),
  }),
);

/** Every field optional: clients of the real service POST an empty body to cancel now. */
export const SubscriptionCancelBody = z.lazy(() => z.object({ cancel_at_cycle_end: z.optional(flagInt) }));

export const CaptureBody = z.lazy(() => z.object({ amount: amountInput, currency: currencyInput }));

export const RefundBody = z.lazy(() =>
  z.object({
    amount: z.optional(amountInput),
    receipt: z.optional(maxChars(LIMITS.receiptChars)),
    notes: z.optional(notesInput),
    speed: z.optional(z.enum(['normal', 'optimum'])),
  }),
);

const transferEntry = z.lazy(() =>
  z.object({
    customer: resourceId,
    amount: amountInput,
    currency: inrOnly,
    notes: z.optional(notesInput),
  }),
);

/** `transfers` holds exactly one entry (one customer per call); a lone object is accepted as well. */
export const PaymentTransferBody = z.lazy(() =>
  z.object({
    transfers: z.union([
      z.array(transferEntry).check(z.length(1, { message: 'must hold exactly one transfer (one customer per call)' })),
      z.pipe(
        transferEntry,
        z.transform((t) => [t]),
      ),
    ]),
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
    contact: maxChars(20).check(z.minLength(1)),
    email: maxChars(120).check(z.minLength(1)),
    description: z.optional(maxChars(LIMITS.descriptionChars)),
    notes: z.optional(notesInput),
  }),
);

export const DirectTransferBody = z.lazy(() =>
  z.object({
    customer_id: resourceId,
    amount: amountInput,
    currency: inrOnly,
    notes: z.optional(notesInput),
  }),
);

export const FundAccountBody = z.lazy(() =>
  z.object({
    customer_id: resourceId,
    account_type: z.literal('bank_account'),
    bank_account: z.object({
      name: z.string().check(z.minLength(1), z.maxLength(120)),
      ifsc: z.string().check(z.regex(/^[A-Z]{4}0[A-Z0-9]{6}$/, { message: 'must be an 11-character IFSC code' })),
      account_number: z.string().check(z.regex(/^\d{5,35}$/, { message: 'must be 5 to 35 digits' })),
    }),
  }),
);

export const NARRATION_PATTERN = /^[A-Za-z0-9 ]*$/;

export const PayoutBody = z.lazy(() =>
  z.object({
    fund_account_id: resourceId,
    purpose: z.string().check(z.minLength(1), z.maxLength(60)),
    amount: amountInput,
    currency: inrOnly,
    notes: z.optional(notesInput),
    reference_id: z.optional(maxChars(LIMITS.referenceIdChars)),
    narration: z.optional(
      maxChars(LIMITS.narrationChars).check(
        z.refine((v) => NARRATION_PATTERN.test(v), { message: 'may contain only a-z, A-Z, 0-9 and space' }),
      ),
    ),
  }),
);

/** `PATCH /orders/:id`, `/payments/:id`, `/refunds/:id`: the notes to merge into the record's (all the service lets change). */
export const NotesEditBody = z.lazy(() => z.object({ notes: notesInput }));

/** One page of a list endpoint as both sides handle it: the query's count, skip and time range. */
export interface PageWindow {
  count: number;
  skip: number;
  from?: number;
  to?: number;
}
