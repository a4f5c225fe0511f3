import { col, declare, words } from './declare';

/** The wallet's rows: transfers into it, fund accounts and payouts out of it, its statement and balance. */

export const transfer = declare({
  entity: 'transfer',
  idPrefix: 'trf',
  path: 'transfers',
  record: {
    status: 'string?',
    transfer_status: 'old:string?',
    source: 'string?',
    recipient: 'string?',
    amount: 'int',
    currency: 'string',
    amount_reversed: 'int?',
    fees: 'int?',
    tax: 'int?',
    notes: 'notes',
    linked_account_notes: 'any',
    on_hold: '~bool',
    on_hold_until: '~int?',
    settlement_status: '~string?',
    recipient_settlement_id: '~string?',
    created_at: 'int',
    processed_at: '~int?',
    error: 'json',
  },
  columns: [
    col('id'),
    col('status', 'text', { fallback: 'transfer_status' }),
    col('source'),
    col('recipient'),
    col('amount', 'money'),
    col('fees', 'money'),
    col('tax', 'money'),
    col('created_at', 'time'),
  ],
  table: ['id', 'status', 'amount', 'recipient', 'created_at', 'source', 'fees', 'tax'],
  currencyAfter: 'amount',
  walletCurrency: true,
});

export const fund_account = declare({
  entity: 'fund_account',
  idPrefix: 'fa',
  path: 'fund_accounts',
  columns: [
    col('id'),
    col('customer_id'),
    col('bank_account.name'),
    col('bank_account.ifsc'),
    col('bank_account.account_number'),
    col('active'),
    col('created_at', 'time'),
  ],
  table: [
    'id',
    'customer_id',
    'bank_account.name',
    'bank_account.account_number',
    'bank_account.ifsc',
    'active',
    'created_at',
  ],
});

export const payout = declare({
  entity: 'payout',
  idPrefix: 'pout',
  path: 'payouts',
  columns: [
    col('id'),
    col('status'),
    col('amount', 'money'),
    col('fees', 'money'),
    col('tax', 'money'),
    col('purpose'),
    col('fund_account_id'),
    col('utr'),
    col('created_at', 'time'),
  ],
  table: ['id', 'status', 'amount', 'purpose', 'created_at', 'utr', 'fund_account_id', 'fees', 'tax'],
  currencyAfter: 'amount',
  walletCurrency: true,
});

/** A wallet statement entry. */
export const customer_transaction = declare({
  entity: 'customer_transaction',
  path: 'statement',
  columns: [
    col('created_at', 'time'),
    col('type'),
    col('credit', 'money'),
    col('debit', 'money'),
    col('balance', 'money'),
    col('description'),
    col('id'),
    col('source'),
  ],
  table: ['customer_id', 'created_at', 'type', 'balance', 'credit', 'debit', 'description', 'id', 'source'],
  parent: col('customer_id'),
  currencyAfter: 'balance',
  walletCurrency: true,
  sheet: 'Statement',
  fields: {
    plain: words(
      'customer_id id entity source status type amount currency credit debit balance description created_at',
    ),
    objects: ['notes'],
  },
});

export const wallet_balance = declare({
  columns: [col('balance', 'money'), col('monthly_usage', 'money'), col('max_balance', 'money')],
  currencyAfter: 'max_balance',
  walletCurrency: true,
});

export const wallet_payment = declare({
  columns: [col('gateway_payment_id'), col('gateway_order_id'), col('gateway_signature')],
});
