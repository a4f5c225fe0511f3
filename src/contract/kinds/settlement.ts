import { col, declare } from './declare';

/** A settlement: the deposit, what was kept from it (fees with GST, and the GST part), its bank reference. */
export const settlement = declare({
  entity: 'settlement',
  idPrefix: 'setl',
  path: 'settlements',
  record: {
    amount: 'int',
    status: 'string?',
    fees: 'int?',
    tax: 'int?',
    utr: 'string?',
    created_at: 'int',
  },
  columns: [
    col('id'),
    col('amount', 'money'),
    col('fees', 'money'),
    col('tax', 'money'),
    col('utr'),
    col('status'),
    col('created_at', 'time'),
  ],
  currencyAfter: 'amount',
  walletCurrency: true,
  sheet: 'Settlements',
});

/** A recon row: which deposit it is in, what it is, and what it added (credit) or took (debit). */
export const settlement_recon = declare({
  path: 'combined',
  columns: [
    col('settled_at', 'time'),
    col('settlement_id'),
    col('settlement_utr'),
    col('type'),
    col('entity_id'),
    col('amount', 'money'),
    col('fee', 'money'),
    col('tax', 'money'),
    col('credit', 'money'),
    col('debit', 'money'),
    col('payment_id'),
    col('order_id'),
    col('order_receipt'),
    col('method'),
    col('settled', 'bool'),
    col('created_at', 'time'),
  ],
  table: ['settlement_id', 'type', 'entity_id', 'amount', 'credit', 'debit', 'fee', 'tax'],
  currencyAfter: 'amount',
  walletCurrency: true,
  sheet: 'Reconciliation',
});
