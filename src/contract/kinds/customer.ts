import { col, declare } from './declare';

export const customer = declare({
  entity: 'customer',
  idPrefix: 'cust',
  path: 'customers',
  record: {
    name: 'string?',
    email: 'string?',
    contact: 'string|number?',
    gstin: '~string?',
    notes: 'notes',
    created_at: '~int',
  },
  columns: [col('id'), col('name'), col('contact'), col('email'), col('created_at', 'time')],
  table: ['id', 'name', 'email', 'contact', 'created_at'],
  sheet: 'Customers',
});
