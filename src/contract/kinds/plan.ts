import { col, declare } from './declare';

export const plan = declare({
  entity: 'plan',
  idPrefix: 'plan',
  path: 'plans',
  columns: [
    col('id'),
    col('period'),
    col('interval'),
    col('item.name'),
    col('item.amount', 'money', { currencyKey: 'item.currency' }),
    col('created_at', 'time'),
  ],
  table: ['id', 'item.name', 'item.amount', 'period', 'interval', 'created_at'],
  currencyAfter: 'item.amount',
});
