import { col, declare } from './declare';

export const subscription = declare({
  entity: 'subscription',
  idPrefix: 'sub',
  path: 'subscriptions',
  columns: [
    col('id'),
    col('plan_id'),
    col('status'),
    col('paid_count'),
    col('remaining_count'),
    col('total_count'),
    col('current_start', 'time'),
    col('current_end', 'time'),
    col('charge_at', 'time'),
    col('customer_id'),
  ],
  table: [
    'id',
    'status',
    'plan_id',
    'charge_at',
    'paid_count',
    'total_count',
    'remaining_count',
    'current_end',
    'current_start',
    'customer_id',
  ],
});
