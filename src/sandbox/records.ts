import type { PaymentMethod, PaymentStatus, PlanPeriod } from '../contract';
import type { Declared, ReadKind } from '../contract/kinds';
import type { Served } from '../contract/served';

/**
 * Each record is the one its kind's declaration in src/contract/kinds says the service sends (Served: every
 * declared field, numbers as numbers); a record below only narrows what the sandbox knows better (a status's
 * values, a count never null) and adds its bookkeeping.
 */

/**
 * The records the sandbox keeps, as stored (JSON in the records table). Keys starting with `_` are
 * its own bookkeeping and never leave it (see publicView).
 */
export interface StoredRecord {
  id: string;
  entity: string;
  created_at: number;
  status?: string | null;
}

export type Notes = Record<string, unknown>;

export interface OrderRecord extends Served<'order'> {
  amount_paid: number;
  status: 'created' | 'attempted' | 'paid';
  attempts: number;
  _payment_capture: boolean;
}

export interface PaymentRecord extends Served<'payment'> {
  status: PaymentStatus;
  method: PaymentMethod;
  amount_refunded: number;
  refund_status: 'partial' | 'full' | null;
  /** Refunded by the capture window, never captured. */
  _auto_refunded?: boolean;
  /** Paid from this customer's wallet: its refunds go back there. */
  _wallet_customer?: string;
}

export type RefundRecord = Served<'refund'>;

export interface Wallet {
  balance: number;
  monthly_usage: number;
  /** The month (YYYY-MM) monthly_usage counts. */
  month: string;
}

export interface CustomerRecord extends Served<'customer'> {
  contact: string | null;
  _wallet?: Wallet;
}

export type CustomerTransactionRecord = Served<'customer_transaction'>;

export interface TransferRecord extends Served<'transfer'> {
  status: 'processed' | 'failed';
}

export interface FundAccountRecord extends Served<'fund_account'> {
  bank_account: NonNullable<Served<'fund_account'>['bank_account']> & { account_number: string };
}

export interface PayoutRecord extends Served<'payout'> {
  customer_id: string;
  status: 'processing' | 'processed' | 'reversed';
}

export interface PlanRecord extends Served<'plan'> {
  period: PlanPeriod;
}

export type SubscriptionStatus =
  'created' | 'authenticated' | 'active' | 'pending' | 'halted' | 'paused' | 'cancelled' | 'completed' | 'expired';

export interface SubscriptionRecord extends Served<'subscription'> {
  status: SubscriptionStatus;
  total_count: number;
  paid_count: number;
  payment_method: PaymentMethod | null;
  /** A cancel scheduled for the end of the cycle paid for. */
  _cancel_at?: number | null;
  /** The open order of a cycle whose charge was declined: its retries are further attempts on it. */
  _cycle_order?: string;
  _cycle_start?: number;
  _failed_attempts?: number;
  /** The customer's payment method declines the charges that fall due. */
  _failing?: boolean;
}

export type DeliveryState = 'pending' | 'retrying' | 'delivered' | 'failed' | 'no webhook';

export interface DeliveryAttempt {
  attempt: number;
  at: number;
  status: number | null;
  error?: string;
}

export interface EventRecord extends StoredRecord {
  entity: 'event';
  account_id: string;
  event: string;
  contains: string[];
  payload: Record<string, { entity: Record<string, unknown> }>;
  _delivery: DeliveryState;
  _attempts: DeliveryAttempt[];
}

export interface SettlementRecord extends Served<'settlement'> {
  status: 'processed';
  utr: string;
  /** The captured payments and processed refunds it settled, in the order its recon rows list them. */
  _items: Array<{ entity: 'payment' | 'refund'; id: string }>;
}

/** The records of the kinds declared whole in src/contract/kinds, by entity: their types are the contract's. */
type ServedEntities = [ReadKind] extends [never]
  ? Record<never, never>
  : { [K in ReadKind as Declared[K] extends { entity: infer E extends string } ? E : never]: Served<K> };

/** The record type of each entity, as Store.get and Store.list return them. */
export interface Entities extends ServedEntities {
  order: OrderRecord;
  payment: PaymentRecord;
  refund: RefundRecord;
  customer: CustomerRecord;
  customer_transaction: CustomerTransactionRecord;
  transfer: TransferRecord;
  fund_account: FundAccountRecord;
  payout: PayoutRecord;
  plan: PlanRecord;
  subscription: SubscriptionRecord;
  event: EventRecord;
  settlement: SettlementRecord;
}

export type Entity = keyof Entities;
