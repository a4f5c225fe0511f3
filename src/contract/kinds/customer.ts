import { col, declare, words } from './declare';

export const customer = declare({
  entity: 'customer',
  idPrefix: 'cust',
  path: 'customers',
  columns: [col('id'), col('name'), col('contact'), col('email'), col('created_at', 'time')],
  table: ['id', 'name', 'email', 'contact', 'created_at'],
  sheet: 'Customers',
  fields: { plain: words('id entity name email contact gstin created_at'), objects: ['notes'] },
});
