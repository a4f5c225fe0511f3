import { col, declare, words } from './declare';

export const refund = declare({
  entity: 'refund',
  idPrefix: 'rfnd',
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
  // At 80 columns: id, amount, status and created_at (when it was refunded); with room, the payment.
  table: [
    'id',
    'amount',
    'status',
    'error',
    'created_at',
    'payment_id',
    'receipt',
    'speed_processed',
    'currency',
    'notes',
  ],
  fetchedById: true,
  currencyAfter: 'amount',
  fields: {
    plain: words(`id entity amount currency payment_id receipt status speed_processed speed_requested batch_id
      created_at`),
    objects: ['notes', 'acquirer_data'],
  },
});
