import { beforeAll, describe, expect, it } from 'vitest';
import { validatePaymentVerification } from 'razorpay/dist/utils/razorpay-utils.js';
import { sandboxForFile } from './harness';
import { openwalletPayment, refusal, sandboxCustomer, sdkCapturedPayment, sdkFor } from './sdk';
import type { Json } from './sdk';

// The official Node SDK (`razorpay`, unchanged) against `payctl sandbox start`: the customer wallet's
// endpoints and rule cases, as an integrating engineer would call them.

const sb = sandboxForFile();
let rzp: Json;
beforeAll(() => {
  rzp = sdkFor(sb);
});
const customer = (contact?: string) => sandboxCustomer(sb, contact);
const capturedPayment = (amount?: number) => sdkCapturedPayment(sb, rzp, amount);

describe('customer wallet', () => {
  it('payment transfer: Indian mobile, captured amount, existing customer, one customer per call', async () => {
    const pay = await capturedPayment(60000);
    const c = await customer();
    const t = await rzp.payments.transfer(pay.id, { transfers: [{ customer: c, amount: 40000, currency: 'INR' }] });
    expect(t).toMatchObject({
      entity: 'transfer',
      status: 'processed',
      source: pay.id,
      recipient: c,
      amount: 40000,
      error: { code: null },
    });
    expect(
      (await refusal(rzp.payments.transfer(pay.id, { transfers: [{ customer: c, amount: 30000, currency: 'INR' }] })))
        .error.field,
    ).toBe('transfers.0.amount');
    const foreign = await customer('+14155550100');
    expect(
      (
        await refusal(
          rzp.payments.transfer(pay.id, { transfers: [{ customer: foreign, amount: 100, currency: 'INR' }] }),
        )
      ).error.description,
    ).toMatch(/not a valid Indian mobile/);
    expect(
      (
        await refusal(
          rzp.payments.transfer(pay.id, {
            transfers: [{ customer: 'cust_00000000000000', amount: 100, currency: 'INR' }],
          }),
        )
      ).error.description,
    ).toMatch(/does not exist/);
    const two = await refusal(
      rzp.payments.transfer(pay.id, {
        transfers: [
          { customer: c, amount: 1, currency: 'INR' },
          { customer: c, amount: 1, currency: 'INR' },
        ],
      }),
    );
    expect(two.error.description).toMatch(/exactly one transfer/);
    expect(
      (
        await refusal(
          rzp.payments.transfer(pay.id, { transfers: [{ customer: c, amount: 100, currency: 'INR', on_hold: true }] }),
        )
      ).error.description,
    ).toBe('transfers.0.on_hold is/are not required and should not be sent');
    expect(
      (await refusal(rzp.payments.transfer(pay.id, { transfers: [{ customer: c, amount: 100, currency: 'USD' }] })))
        .error.description,
    ).toMatch(/INR/);
  });

  it('direct transfer, wallet payment (signature verified by the SDK), balance, statement, fund account, payout', async () => {
    await capturedPayment(100000); // account balance for the cashback
    const c = await customer('9123456780');
    expect(await rzp.transfers.create({ customer_id: c, amount: 20000, currency: 'INR' })).toMatchObject({
      status: 'processed',
      recipient: c,
    });
    expect(
      (await refusal(rzp.transfers.create({ customer_id: c, amount: 1, currency: 'INR', account: 'acc_x' }))).error
        .field,
    ).toBe('account');

    const body = await openwalletPayment(rzp, c, 5000, '+919123456780');
    const wp = await rzp.api.post({ url: '/payments/create/openwallet', data: body });
    expect(
      validatePaymentVerification(
        { order_id: wp.gateway_order_id, payment_id: wp.gateway_payment_id },
        wp.gateway_signature,
        sb.keySecret,
      ),
    ).toBe(true);
    const big = await rzp.orders.create({ amount: 9_000_000, currency: 'INR' });
    expect(
      (
        await refusal(
          rzp.api.post({ url: '/payments/create/openwallet', data: { ...body, order_id: big.id, amount: 9_000_000 } }),
        )
      ).error.description,
    ).toMatch(/Insufficient wallet balance/);

    expect(await rzp.api.get({ url: `/customers/${c}/balance` })).toMatchObject({
      balance: 15000,
      max_balance: 20_000_000,
    });
    const statement = await rzp.api.get({ url: `/customers/${c}/statement`, data: { count: 10 } });
    expect(statement.items.map((e: Json) => [e.type, e.credit, e.debit, e.balance])).toEqual([
      ['payment', 0, 5000, 15000],
      ['transfer', 20000, 0, 20000],
    ]);

    const fa = await rzp.fundAccount.create({
      customer_id: c,
      account_type: 'bank_account',
      bank_account: { name: 'Asha Rao', ifsc: 'HDFC0001234', account_number: '50100012345678' },
    });
    expect(fa).toMatchObject({
      entity: 'fund_account',
      batch_id: null,
      bank_account: { bank_name: 'HDFC Bank', notes: [] },
    });
    const payout = await rzp.api.post({
      url: `/customers/${c}/payouts`,
      data: { fund_account_id: fa.id, purpose: 'refund', amount: 10000, currency: 'INR' },
    });
    expect(payout).toMatchObject({ entity: 'payout', status: 'processing', amount: 10000 });
    expect(
      (
        await refusal(
          rzp.api.post({
            url: `/customers/${c}/payouts`,
            data: { fund_account_id: fa.id, purpose: 'refund', amount: 1, currency: 'INR', mode: 'IMPS' },
          }),
        )
      ).error.field,
    ).toBe('mode');
    expect(
      (
        await refusal(
          rzp.api.post({
            url: `/customers/${c}/payouts`,
            data: { fund_account_id: fa.id, purpose: 'refund', amount: 100000, currency: 'INR' },
          }),
        )
      ).error.description,
    ).toMatch(/Insufficient/);
    await sb.admin('POST', '/clock/advance', { seconds: 7200 });
    expect(await rzp.api.get({ url: `/customers/${c}/balance` })).toMatchObject({ balance: 5000 });
  });
});
