import { col, declare } from './declare';

export const order = declare({
  entity: 'order',
  idPrefix: 'order',
  path: 'orders',
  record: {
    amount: 'int',
    amount_paid: 'int?',
    amount_due: 'int?',
    currency: 'string',
    receipt: 'string?',
    offer_id: '~string?',
    status: 'string',
    attempts: 'int?',
    notes: 'notes',
    created_at: 'int',
  },
  columns: [
    col('id'),
    col('status'),
    col('amount', 'money'),
    col('amount_paid', 'money'),
    col('amount_due', 'money'),
    col('attempts'),
    col('receipt'),
    col('created_at', 'time'),
  ],
  table: ['id', 'status', 'amount', 'created_at', 'amount_due', 'amount_paid', 'receipt', 'attempts'],
  currencyAfter: 'amount',
  sheet: 'Orders',
});
