import { describe, expect, it } from 'vitest';
import { endpoints } from '../../../src/contract';
import type { EndpointName } from '../../../src/contract';
import { refuseUnknownFields } from '../../../src/sandbox/strict';

// Every documented endpoint takes exactly the fields of its request schema: a complete valid request
// passes; one more field, at the top or inside a nested object, is refused with the real message.

const VALID: Partial<Record<EndpointName, { input: Record<string, unknown>; nested?: string[] }>> = {
  listOrders: { input: { count: '10', skip: '0', from: '1', to: '2', authorized: '0', receipt: 'r' } },
  editOrder: { input: { notes: { any: 'key' } } },
  editPayment: { input: { notes: { any: 'key' } } },
  editRefund: { input: { notes: { any: 'key' } } },
  createOrder: { input: { amount: 100, currency: 'INR', receipt: 'r', payment_capture: true, notes: { any: 'key' } } },
  createPlan: {
    input: {
      period: 'daily',
      interval: 1,
      item: { name: 'n', amount: 1, currency: 'INR', description: 'd' },
      notes: {},
    },
    nested: ['item'],
  },
  createSubscription: {
    input: { plan_id: 'plan_1', total_count: 1, customer_notify: 1, start_at: 1, quantity: 1, notes: {} },
  },
  cancelSubscription: { input: { cancel_at_cycle_end: 0 } },
  capturePayment: { input: { amount: 1, currency: 'INR' } },
  listPayments: { input: { count: '1', skip: '0', from: '1', to: '2' } },
  transferPayment: {
    input: { transfers: [{ customer: 'cust_1', amount: 1, currency: 'INR', notes: {} }] },
    nested: ['transfers.0'],
  },
  createWalletPayment: {
    input: {
      method: 'wallet',
      wallet: 'openwallet',
      customer_id: 'c',
      order_id: 'o',
      amount: 1,
      currency: 'INR',
      contact: 'x',
      email: 'e',
      description: 'd',
      notes: {},
    },
  },
  refundPayment: { input: { amount: 1, receipt: 'r', notes: {}, speed: 'normal' } },
  listRefunds: { input: { count: '1', skip: '0', from: '1', to: '2' } },
  listPaymentRefunds: { input: { count: '1', skip: '0', from: '1', to: '2' } },
  createDirectTransfer: { input: { customer_id: 'c', amount: 1, currency: 'INR', notes: {} } },
  createFundAccount: {
    input: {
      customer_id: 'c',
      account_type: 'bank_account',
      bank_account: { name: 'n', ifsc: 'HDFC0001234', account_number: '12345' },
    },
    nested: ['bank_account'],
  },
  createPayout: {
    input: {
      fund_account_id: 'fa',
      purpose: 'p',
      amount: 1,
      currency: 'INR',
      notes: {},
      reference_id: 'r',
      narration: 'n',
    },
  },
  getWalletStatement: { input: { count: '1', skip: '0', from: '1', to: '2' } },
  listPlans: { input: { count: '1', skip: '0', from: '1', to: '2' } },
  listSubscriptions: { input: { count: '1', skip: '0', from: '1', to: '2', plan_id: 'plan_1' } },
  pauseSubscription: { input: { pause_at: 'now' } },
  resumeSubscription: { input: { resume_at: 'now' } },
  createCustomer: {
    input: { name: 'n', email: 'e@x.in', contact: '9876543210', gstin: null, notes: {}, fail_existing: '0' },
  },
  listCustomers: { input: { count: '1', skip: '0', from: '1', to: '2' } },
  listItems: { input: { count: '1', skip: '0', from: '1', to: '2' } },
  editCustomer: { input: { name: 'n', email: 'e@x.in', contact: 9876543210 } },
  listSettlements: { input: { count: '1', skip: '0', from: '1', to: '2' } },
  settlementRecon: { input: { year: '2024', month: '4', day: '15', count: '1', skip: '0' } },
};

const schemaOf = (name: EndpointName) => {
  const ep = endpoints[name] as { body?: unknown; query?: unknown };
  return ep.body ?? ep.query;
};

const refusal = (schema: unknown, input: unknown) => {
  try {
    refuseUnknownFields(schema, input);
  } catch (err) {
    return (err as Error).message;
  }
  return undefined;
};

describe('unknown fields', () => {
  it('every endpoint that takes a body or query is covered', () => {
    const taking = (Object.keys(endpoints) as EndpointName[]).filter((n) => schemaOf(n));
    expect(taking.sort()).toEqual(Object.keys(VALID).sort());
  });

  it.each(Object.entries(VALID))('%s: takes its own fields, refuses one more', (name, { input, nested = [] }) => {
    const schema = schemaOf(name as EndpointName);
    expect(refusal(schema, input)).toBeUndefined();
    expect(refusal(schema, { ...input, foo: 'bar' })).toBe('foo is/are not required and should not be sent');
    for (const path of nested) {
      const copy = structuredClone(input);
      const parts = path.split('.');
      let at: Record<string, unknown> = copy;
      for (const p of parts) at = at[p] as Record<string, unknown>;
      at.on_hold = true;
      expect(refusal(schema, copy)).toBe(`${path}.on_hold is/are not required and should not be sent`);
    }
  });

  it('a lone transfer object (not in an array) is walked as well; notes take any key', () => {
    const schema = endpoints.transferPayment.body;
    expect(refusal(schema, { transfers: { customer: 'c', amount: 1, currency: 'INR', on_hold: 1 } })).toBe(
      'transfers.on_hold is/are not required and should not be sent',
    );
    expect(
      refusal(endpoints.createOrder.body, { amount: 1, currency: 'INR', notes: { foo: 'bar', on_hold: 'x' } }),
    ).toBeUndefined();
  });
});
