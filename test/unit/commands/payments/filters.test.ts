import { describe, expect, it } from 'vitest';
import { paymentFilter } from '../../../../src/commands/payments/filters';
import { UsageError } from '../../../../src/contract/errors';

const pay = {
  id: 'pay_1',
  status: 'captured',
  email: 'Priya.Sharma@Example.com',
  contact: '+919876543210',
  order_id: 'order_29QQoUBi66xm2f',
  method: 'upi',
};

describe('payments list filters', () => {
  it('no filter keeps everything (the service lists as usual)', () => {
    expect(paymentFilter({})).toEqual({ noun: 'payments' });
  });

  it('e-mail whatever its case; phone by its digits, with or without the country code', () => {
    expect(paymentFilter({ email: ' priya.sharma@example.COM ' }).keep!(pay)).toBe(true);
    expect(paymentFilter({ email: 'priya@example.com' }).keep!(pay)).toBe(false);
    for (const contact of ['9876543210', '+91 98765 43210', '+919876543210'])
      expect(paymentFilter({ contact }).keep!(pay), contact).toBe(true);
    expect(paymentFilter({ contact: '9876543211' }).keep!(pay)).toBe(false);
  });

  it('filters combine: every one must hold; the list is named by them', () => {
    const both = paymentFilter({ status: 'captured', order: 'order_29QQoUBi66xm2f', method: 'UPI' });
    expect(both.keep!(pay)).toBe(true);
    expect(both.keep!({ ...pay, method: 'card' })).toBe(false);
    expect(both.noun).toBe('captured payments on order_29QQoUBi66xm2f by upi');
  });

  it('refuses what cannot match, before anything is sent', () => {
    expect(() => paymentFilter({ email: ' ' })).toThrow(UsageError);
    expect(() => paymentFilter({ contact: '+9' })).toThrow(UsageError);
    expect(() => paymentFilter({ order: 'pay_29QQoUBi66xm2f' })).toThrow(/order id must look like/);
  });
});
