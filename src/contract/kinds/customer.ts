import { col, declare } from './declare';

export const customer = declare({
  entity: 'customer',
  path: 'customers',
  columns: [col('id'), col('name'), col('contact'), col('email'), col('created_at', 'time')],
});
