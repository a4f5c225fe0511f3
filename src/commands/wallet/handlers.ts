import { UsageError } from '../../contract/errors';
import { LIMITS } from '../../contract/limits';
import { NARRATION_PATTERN } from '../../contract/requests';
import type { BodyOf } from '../../contract/endpoints';
import { INR } from '../../contract/vocabulary';
import { formatMoney } from '../../output/money';
import { dryRun, sendOrShow } from '../check';
import type { Context } from '../context';
import { idArg, notesFlag } from '../flags';
import { printed } from '../invocation';
import { one } from '../result';
import type { CommandResult } from '../result';
import { discontinued, moveMoney, paise } from './money';
import { statement } from './statement';
import type { StatementOptions } from './statement';

/** A mobile number as the service stores contacts: optional +, 8-15 digits. */
function contactFlag(raw: string): string {
  const c = raw.replace(/[\s-]/g, '');
  if (!/^\+?\d{8,15}$/.test(c))
    throw new UsageError(`--contact must be a phone number like +919876543210: got ${JSON.stringify(raw)}`);
  return c;
}

function emailFlag(raw: string): string {
  const email = raw.trim();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw new UsageError(`--email must be an e-mail address: got ${JSON.stringify(email)}`);
  return email;
}

function narrationFlag(raw: string | undefined): string | undefined {
  if (raw !== undefined && (!NARRATION_PATTERN.test(raw) || raw.length > LIMITS.narrationChars))
    throw new UsageError(`--narration may hold at most ${LIMITS.narrationChars} characters: a-z, A-Z, 0-9 and space`);
  return raw;
}

/** What to do before sending a money movement again whose answer was lost: read today's statement. */
const checkToday = (ctx: Context, customer: string, what: string) =>
  `check \`${printed(ctx.settings, ['wallet', 'statement', customer, '--from', 'today'], { window: true })}\` ${what}`;

export interface TransferPaymentOptions {
  paymentId: string;
  customer: string;
  amount: string;
  notes: string[];
}

export async function transferPayment(opts: TransferPaymentOptions, ctx: Context): Promise<CommandResult> {
  discontinued(ctx);
  const paymentId = idArg(opts.paymentId, 'payment');
  const customer = idArg(opts.customer, 'customer');
  const amount = paise(opts.amount);
  const api = await ctx.api();
  const req = api.prepare('transferPayment', {
    params: { id: paymentId },
    body: { transfers: [{ customer, amount, currency: INR, notes: notesFlag(opts.notes) }] },
  });
  const question = `Transfer ${formatMoney(amount, INR)} from payment ${paymentId} into the wallet of ${customer}?`;
  return moveMoney(
    ctx,
    req,
    'transfer',
    question,
    checkToday(ctx, customer, 'for the transfer before sending it again'),
  );
}

export interface CreditWalletOptions {
  customer: string;
  amount: string;
  notes: string[];
}

export async function creditWallet(opts: CreditWalletOptions, ctx: Context): Promise<CommandResult> {
  discontinued(ctx);
  const customer = idArg(opts.customer, 'customer');
  const amount = paise(opts.amount);
  const api = await ctx.api();
  const req = api.prepare('createDirectTransfer', {
    body: { customer_id: customer, amount, currency: INR, notes: notesFlag(opts.notes) },
  });
  const question = `Credit ${formatMoney(amount, INR)} (cashback) to the wallet of ${customer}?`;
  return moveMoney(ctx, req, 'transfer', question, checkToday(ctx, customer, 'before crediting again'));
}

export interface PayFromWalletOptions {
  customer: string;
  order: string;
  amount: string;
  contact: string;
  email: string;
  description?: string;
  notes: string[];
}

export async function payFromWallet(opts: PayFromWalletOptions, ctx: Context): Promise<CommandResult> {
  discontinued(ctx);
  const customer = idArg(opts.customer, 'customer');
  const order = idArg(opts.order, 'order');
  const amount = paise(opts.amount);
  const body: BodyOf<'createWalletPayment'> = {
    method: 'wallet',
    wallet: 'openwallet',
    customer_id: customer,
    order_id: order,
    amount,
    currency: INR,
    contact: contactFlag(opts.contact),
    email: emailFlag(opts.email),
    description: opts.description,
    notes: notesFlag(opts.notes),
  };
  const api = await ctx.api();
  const req = api.prepare('createWalletPayment', { body });
  const question = `Pay ${formatMoney(amount, INR)} for order ${order} from the wallet of ${customer}?`;
  return moveMoney(
    ctx,
    req,
    'wallet_payment',
    question,
    checkToday(ctx, customer, 'and the order before paying again'),
  );
}

export interface ShowBalanceOptions {
  customer: string;
}

export async function showBalance(opts: ShowBalanceOptions, ctx: Context): Promise<CommandResult> {
  discontinued(ctx);
  const api = await ctx.api();
  const req = api.prepare('getWalletBalance', { params: { id: idArg(opts.customer, 'customer') } });
  return sendOrShow(ctx, api, req, 'wallet_balance');
}

export async function exportStatement(opts: StatementOptions, ctx: Context): Promise<CommandResult> {
  discontinued(ctx);
  return statement(opts, ctx);
}

export interface CreateFundAccountOptions {
  customer: string;
  name: string;
  ifsc: string;
  accountNumber: string;
}

export async function createFundAccount(opts: CreateFundAccountOptions, ctx: Context): Promise<CommandResult> {
  discontinued(ctx);
  const body: BodyOf<'createFundAccount'> = {
    customer_id: idArg(opts.customer, 'customer'),
    account_type: 'bank_account',
    bank_account: {
      name: opts.name.trim(),
      ifsc: opts.ifsc.trim().toUpperCase(),
      account_number: opts.accountNumber.trim(),
    },
  };
  const api = await ctx.api();
  const req = api.prepare('createFundAccount', { body });
  // Not sendOnce: the service has no list of fund accounts to name as the check for a lost answer.
  if (ctx.settings.dryRun) return dryRun(req);
  return one('fund_account', await api.execute(req));
}

export interface CreatePayoutOptions {
  customer: string;
  fundAccount: string;
  amount: string;
  purpose: string;
  referenceId?: string;
  narration?: string;
  notes: string[];
}

export async function createPayout(opts: CreatePayoutOptions, ctx: Context): Promise<CommandResult> {
  discontinued(ctx);
  const customer = idArg(opts.customer, 'customer');
  const amount = paise(opts.amount);
  const narration = narrationFlag(opts.narration);
  const fundAccount = idArg(opts.fundAccount, 'fund_account');
  const body: BodyOf<'createPayout'> = {
    fund_account_id: fundAccount,
    purpose: opts.purpose.trim(),
    amount,
    currency: INR,
    notes: notesFlag(opts.notes),
    reference_id: opts.referenceId,
    narration,
  };
  const api = await ctx.api();
  const req = api.prepare('createPayout', { params: { id: customer }, body });
  const question = `Pay out ${formatMoney(amount, INR)} from the wallet of ${customer} to fund account ${fundAccount}?`;
  return moveMoney(ctx, req, 'payout', question, checkToday(ctx, customer, 'for the payout before sending it again'));
}
