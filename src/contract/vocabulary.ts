/** The service's words, named once: schemas, the sandbox, command choices and help texts use these lists. */

export const PAYMENT_STATUSES = ['created', 'authorized', 'captured', 'refunded', 'failed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_METHODS = ['card', 'netbanking', 'wallet', 'upi'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const PLAN_PERIODS = ['daily', 'weekly', 'monthly', 'yearly'] as const;
export type PlanPeriod = (typeof PLAN_PERIODS)[number];

/** The wallet (and its statements, payouts, balances) exists only in rupees. */
export const INR = 'INR';

/** The note a refund payctl sends carries its identity in: kept in JSON, CSV and xlsx, left out of tables. */
export const KEY_NOTE = 'payctl_key';
