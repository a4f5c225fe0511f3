import type { Column } from './columns';

const c = (key: string, type: Column['type'] = 'text'): Column => ({ key, header: key, type });

/** A settlement: the deposit, what was kept from it (fees with GST, and the GST part), its bank reference. */
export const SETTLEMENT_COLUMNS: Column[] = [
  c('id'),
  c('amount', 'money'),
  c('fees', 'money'),
  c('tax', 'money'),
  c('utr'),
  c('status'),
  c('created_at', 'time'),
];

/** A recon row: which deposit it is in, what it is, and what it added (credit) or took (debit). */
export const RECON_COLUMNS: Column[] = [
  c('settled_at', 'time'),
  c('settlement_id'),
  c('settlement_utr'),
  c('type'),
  c('entity_id'),
  c('amount', 'money'),
  c('fee', 'money'),
  c('tax', 'money'),
  c('credit', 'money'),
  c('debit', 'money'),
  c('payment_id'),
  c('order_id'),
  c('order_receipt'),
  c('method'),
  c('settled', 'bool'),
  c('created_at', 'time'),
];

export const RECON_PRIORITY = ['settlement_id', 'type', 'entity_id', 'amount', 'credit', 'debit', 'fee', 'tax'];
