import { col, declare, words } from './declare';

export const payment = declare({
  entity: 'payment',
  path: 'payments',
  columns: [
    col('id'),
    col('status'),
    col('amount', 'money'),
    col('amount_refunded', 'money'),
    col('fee', 'money'),
    col('tax', 'money'),
    col('method'),
    col('order_id'),
    col('email'),
    col('contact'),
    col('captured', 'bool'),
    col('created_at', 'time'),
  ],
  table: [
    'id',
    'status',
    'amount',
    'created_at',
    'amount_refunded',
    'method',
    'email',
    'contact',
    'order_id',
    'captured',
    'fee',
    'tax',
  ],
  currencyAfter: 'amount',
  sheet: 'Payments',
  fields: {
    plain: words(`id entity amount currency status order_id invoice_id international method amount_refunded
      refund_status captured description card_id bank wallet vpa email contact customer_id fee tax error_code
      error_description error_source error_step error_reason created_at`),
    objects: ['notes', 'acquirer_data', 'card'],
  },
});
