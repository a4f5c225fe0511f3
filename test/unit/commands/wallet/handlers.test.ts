import { describe, expect, it } from 'vitest';
import {
  createFundAccount,
  createPayout,
  creditWallet,
  payFromWallet,
  showBalance,
  transferPayment,
} from '../../../../src/commands/wallet/handlers';
import type {
  CreatePayoutOptions,
  CreditWalletOptions,
  PayFromWalletOptions,
  TransferPaymentOptions,
} from '../../../../src/commands/wallet/handlers';
import type { CommandResult } from '../../../../src/commands/result';
import type { Context } from '../../../../src/commands/context';
import { OutcomeUnknownError, UsageError } from '../../../../src/contract/errors';
import { fakeContext } from '../fake-context';
import type { Routes } from '../fake-context';

const CUST = 'cust_4xbQrmEoA5q1fP';
const transferRecord = { id: 'trf_1', entity: 'transfer', amount: 20000, currency: 'INR', notes: [], created_at: 1 };
const payoutRecord = {
  id: 'pout_1',
  entity: 'payout',
  fund_account_id: 'fa_Lm3nB7vC9xZq2w',
  amount: 10000,
  currency: 'INR',
  status: 'processing',
  notes: [],
  created_at: 1,
};
const walletPayment = { gateway_payment_id: 'pay_w1', gateway_order_id: 'order_o1', gateway_signature: 'ab' };

const transfer = (o: Partial<TransferPaymentOptions> = {}): TransferPaymentOptions => ({
  paymentId: 'pay_29QQoUBi66xm2f',
  customer: CUST,
  amount: '20000',
  notes: [],
  ...o,
});
const credit = (o: Partial<CreditWalletOptions> = {}): CreditWalletOptions => ({
  customer: CUST,
  amount: '5000',
  notes: [],
  ...o,
});
const pay = (o: Partial<PayFromWalletOptions> = {}): PayFromWalletOptions => ({
  customer: CUST,
  order: 'order_DBJOWzybf0sJbb',
  amount: '10000',
  contact: '+91 98765-43210',
  email: 'a@example.com',
  notes: [],
  ...o,
});
const payout = (o: Partial<CreatePayoutOptions> = {}): CreatePayoutOptions => ({
  customer: CUST,
  fundAccount: 'fa_Lm3nB7vC9xZq2w',
  amount: '10000',
  purpose: 'refund',
  notes: [],
  ...o,
});

/** One money movement per row: the handler, its options, the route it posts to and what that answers. */
interface Move {
  name: string;
  run: (ctx: Context) => Promise<CommandResult>;
  route: string;
  answer: unknown;
  request: { path: string; body: unknown };
  kind: string;
  question: string;
}

const moves: Move[] = [
  {
    name: 'transfer',
    run: (ctx) => transferPayment(transfer({ notes: ['reason=goodwill'] }), ctx),
    route: 'POST /payments/:id/transfers',
    answer: transferRecord,
    request: {
      path: '/payments/pay_29QQoUBi66xm2f/transfers',
      body: { transfers: [{ customer: CUST, amount: 20000, currency: 'INR', notes: { reason: 'goodwill' } }] },
    },
    kind: 'transfer',
    question: `Transfer ₹200.00 (20000 paise) from payment pay_29QQoUBi66xm2f into the wallet of ${CUST}?`,
  },
  {
    name: 'credit',
    run: (ctx) => creditWallet(credit(), ctx),
    route: 'POST /transfers',
    answer: transferRecord,
    request: { path: '/transfers', body: { customer_id: CUST, amount: 5000, currency: 'INR' } },
    kind: 'transfer',
    question: `Credit ₹50.00 (5000 paise) (cashback) to the wallet of ${CUST}?`,
  },
  {
    name: 'pay',
    run: (ctx) => payFromWallet(pay({ description: 'Gold' }), ctx),
    route: 'POST /payments/create/openwallet',
    answer: walletPayment,
    request: {
      path: '/payments/create/openwallet',
      body: {
        method: 'wallet',
        wallet: 'openwallet',
        customer_id: CUST,
        order_id: 'order_DBJOWzybf0sJbb',
        amount: 10000,
        currency: 'INR',
        contact: '+919876543210',
        email: 'a@example.com',
        description: 'Gold',
      },
    },
    kind: 'wallet_payment',
    question: `Pay ₹100.00 (10000 paise) for order order_DBJOWzybf0sJbb from the wallet of ${CUST}?`,
  },
  {
    name: 'payout',
    run: (ctx) => createPayout(payout({ narration: 'Acme refund', referenceId: 'ref-1' }), ctx),
    route: 'POST /customers/:id/payouts',
    answer: payoutRecord,
    request: {
      path: `/customers/${CUST}/payouts`,
      body: {
        fund_account_id: 'fa_Lm3nB7vC9xZq2w',
        purpose: 'refund',
        amount: 10000,
        currency: 'INR',
        reference_id: 'ref-1',
        narration: 'Acme refund',
      },
    },
    kind: 'payout',
    question: `Pay out ₹100.00 (10000 paise) from the wallet of ${CUST} to fund account fa_Lm3nB7vC9xZq2w?`,
  },
];

describe('wallet money movements', () => {
  it.each(moves.map((m) => [m.name, m] as const))(
    '%s: asks, sends one POST in INR and answers the record',
    async (_name, m) => {
      const f = fakeContext({ routes: { [m.route]: { body: m.answer } } });
      const result = await m.run(f.ctx);
      expect(f.questions).toEqual([m.question]);
      expect(f.sent).toHaveLength(1);
      expect(f.sent[0]).toMatchObject({ method: 'POST', ...m.request });
      expect(result).toEqual({ type: 'one', kind: m.kind, data: m.answer });
      expect(f.stderr()).not.toMatch(/discontinued/);
    },
  );

  it.each(moves.map((m) => [m.name, m] as const))('%s: --dry-run asks nothing and sends nothing', async (_n, m) => {
    const f = fakeContext({ settings: { dryRun: true } });
    const result = await m.run(f.ctx);
    expect(result).toMatchObject({ type: 'dry-run', requests: [{ method: 'POST', path: m.request.path }] });
    expect(f.questions).toHaveLength(0);
    expect(f.sent).toHaveLength(0);
  });

  it.each(moves.map((m) => [m.name, m] as const))('%s: a declined confirmation sends nothing', async (_n, m) => {
    const f = fakeContext({ confirm: false, routes: { [m.route]: { body: m.answer } } });
    await expect(m.run(f.ctx)).rejects.toThrow(/declined at a confirmation: nothing was sent/);
    expect(f.questions).toHaveLength(1);
    expect(f.sent).toHaveLength(0);
  });

  it.each(moves.map((m) => [m.name, m] as const))(
    '%s: a lost answer (exit 6) says to check the statement, not to resend',
    async (_n, m) => {
      const f = fakeContext({ routes: { [m.route]: { body: { unexpected: true } } } });
      const err = await m.run(f.ctx).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OutcomeUnknownError);
      expect((err as OutcomeUnknownError).check).toContain(
        `do not resend blindly: check \`payctl wallet statement ${CUST} --from today --tz Asia/Kolkata\``,
      );
      expect(f.sent).toHaveLength(1);
    },
  );

  it.each<[string, (ctx: Context) => Promise<CommandResult>, RegExp]>([
    [
      'an amount in rupees with a decimal point',
      (c) => creditWallet(credit({ amount: '50.00' }), c),
      /did you mean 5000/,
    ],
    ['a negative amount', (c) => transferPayment(transfer({ amount: '-1' }), c), /--amount/],
    ['a payment id that is not pay_…', (c) => transferPayment(transfer({ paymentId: 'order_x1' }), c), /payment id/],
    ['a customer id with a slash', (c) => creditWallet(credit({ customer: 'cust_a/b' }), c), /customer id/],
    ['an order id that is not order_…', (c) => payFromWallet(pay({ order: 'pay_x1' }), c), /order id/],
    ['a contact that is not a phone number', (c) => payFromWallet(pay({ contact: 'call me' }), c), /--contact/],
    ['an e-mail without @', (c) => payFromWallet(pay({ email: 'a.example.com' }), c), /--email/],
    ['a note without =', (c) => creditWallet(credit({ notes: ['oops'] }), c), /--note/],
    ['a narration with punctuation', (c) => createPayout(payout({ narration: 'Acme, refund!' }), c), /--narration/],
    ['a narration over 30 characters', (c) => createPayout(payout({ narration: 'a'.repeat(31) }), c), /at most 30/],
    ['a reference id over 40 characters', (c) => createPayout(payout({ referenceId: 'r'.repeat(41) }), c), /ref/],
    ['a fund account that is not fa_…', (c) => createPayout(payout({ fundAccount: 'cust_x1' }), c), /fund account/],
  ])('%s: a usage error, nothing asked or sent', async (_name, run, message) => {
    const f = fakeContext();
    const err = await run(f.ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(message);
    expect(f.questions).toHaveLength(0);
    expect(f.sent).toHaveLength(0);
  });
});

describe('wallet balance', () => {
  const routes: Routes = { 'GET /customers/:id/balance': { body: { balance: 3000, monthly_usage: 0 } } };

  it('reads the balance of the customer', async () => {
    const f = fakeContext({ routes });
    const result = await showBalance({ customer: ` ${CUST} ` }, f.ctx);
    expect(f.sent).toEqual([expect.objectContaining({ method: 'GET', path: `/customers/${CUST}/balance` })]);
    expect(result).toMatchObject({ type: 'one', kind: 'wallet_balance', data: { balance: 3000 } });
    expect(f.questions).toHaveLength(0);
  });

  it('--dry-run sends nothing; a bad id is a usage error', async () => {
    const dry = fakeContext({ routes, settings: { dryRun: true } });
    expect(await showBalance({ customer: CUST }, dry.ctx)).toMatchObject({ type: 'dry-run' });
    expect(dry.sent).toHaveLength(0);
    const bad = fakeContext({ routes });
    await expect(showBalance({ customer: 'pay_x1' }, bad.ctx)).rejects.toThrow(UsageError);
    expect(bad.sent).toHaveLength(0);
  });
});

describe('wallet fund-account create', () => {
  const account = { customer: CUST, name: ' Asha Rao ', ifsc: 'sbin0000001', accountNumber: '11112222333' };
  const record = { id: 'fa_new1', entity: 'fund_account', created_at: 1 };

  it('sends the bank account, the IFSC in capitals, without asking', async () => {
    const f = fakeContext({ routes: { 'POST /fund_accounts': { body: record } } });
    const result = await createFundAccount(account, f.ctx);
    expect(f.sent[0]).toMatchObject({
      method: 'POST',
      path: '/fund_accounts',
      body: {
        customer_id: CUST,
        account_type: 'bank_account',
        bank_account: { name: 'Asha Rao', ifsc: 'SBIN0000001', account_number: '11112222333' },
      },
    });
    expect(result).toEqual({ type: 'one', kind: 'fund_account', data: record });
    expect(f.questions).toHaveLength(0);
  });

  it.each([
    ['an IFSC code of the wrong shape', { ifsc: 'HDFC53' }, /IFSC/],
    ['an account number with letters', { accountNumber: '1234abcd' }, /digits/],
    ['an empty name', { name: '  ' }, /name/],
  ])('%s: a usage error, nothing sent', async (_name, extra, message) => {
    const f = fakeContext();
    await expect(createFundAccount({ ...account, ...extra }, f.ctx)).rejects.toThrow(message);
    expect(f.sent).toHaveLength(0);
  });

  it('--dry-run sends nothing', async () => {
    const f = fakeContext({ settings: { dryRun: true } });
    const result = await createFundAccount(account, f.ctx);
    expect(result).toMatchObject({ type: 'dry-run', requests: [{ method: 'POST', path: '/fund_accounts' }] });
    expect(f.sent).toHaveLength(0);
  });
});
