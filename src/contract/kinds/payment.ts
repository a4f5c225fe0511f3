import { col, declare, words } from './declare';

export const payment = declare({
  entity: 'payment',
  idPrefix: 'pay',
  path: 'payments',
  columns: [
    col('id'),
    col('status'),
    col('amount', 'money'),
    col('amount_refunded', 'money', { short: 'refunded' }),
    col('fee', 'money'),
    col('tax', 'money'),
    col('method'),
    col('order_id'),
    col('email'),
    col('contact'),
    col('captured', 'bool'),
    col('created_at', 'time'),
  ],
  // At 80 columns: id, status, amount, refunded, created_at; with room, whom it was from (e-mail, phone).
  table: [
    'id',
    'status',
    'amount',
    'amount_refunded',
    // Only in a read of many ids where one failed: its error, cut to the room left, before the time.
    'error',
    'created_at',
    'email',
    'contact',
    'method',
    'order_id',
    'captured',
    'fee',
    'tax',
  ],
  fetchedById: true,
  currencyAfter: 'amount',
  sheet: 'Payments',
  fields: {
    plain: words(`id entity amount currency status order_id invoice_id international method amount_refunded
      refund_status captured description card_id bank wallet vpa email contact customer_id fee tax error_code
      error_description error_source error_step error_reason created_at`),
    objects: ['notes', 'acquirer_data', 'card'],
  },
});
