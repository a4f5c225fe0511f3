import { col, declare } from './declare';

export const plan = declare({
  entity: 'plan',
  idPrefix: 'plan',
  path: 'plans',
  record: {
    interval: 'int',
    period: 'string',
    item: { object: { name: 'string', amount: 'int', currency: 'string' } },
    notes: 'notes',
    created_at: 'int',
  },
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
