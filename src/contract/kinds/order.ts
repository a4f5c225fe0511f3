import { col, declare, words } from './declare';

export const order = declare({
  entity: 'order',
  idPrefix: 'order',
  path: 'orders',
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
  fields: {
    plain: words('id entity amount amount_paid amount_due currency receipt offer_id status attempts created_at'),
    objects: ['notes'],
  },
});
