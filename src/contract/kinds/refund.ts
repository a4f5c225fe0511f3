import { col, declare, words } from './declare';

export const refund = declare({
  entity: 'refund',
  path: 'refunds',
  columns: [
    col('id'),
    col('payment_id'),
    col('amount', 'money'),
    col('currency'),
    col('status'),
    col('created_at', 'time'),
    col('receipt'),
    col('speed_processed'),
    col('notes', 'json'),
  ],
  table: ['id', 'payment_id', 'amount', 'status', 'created_at', 'currency', 'receipt', 'speed_processed', 'notes'],
  currencyAfter: 'amount',
  fields: {
    plain: words(`id entity amount currency payment_id receipt status speed_processed speed_requested batch_id
      created_at`),
    objects: ['notes', 'acquirer_data'],
  },
});
