import { UsageError } from '../../contract/errors';
import { INR } from '../../contract/vocabulary';
import { NARRATION_PATTERN } from '../../contract/requests';
import { formatMoney } from '../../output/money';
import type { Context } from '../context';
import { amountFlag, idArg, notesFlag } from '../flags';
import { moveMoney } from './money';
import { one } from '../result';
import { statement as exportStatement } from './statement';
import type { CommandResult, Input } from '../result';

/** Wallet flows take INR only, so payctl fills it in. */

function discontinued(ctx: Context) {
  ctx.notice(
    'note: the customer wallet product is discontinued (support ended April 2023); these endpoints may be unavailable on the live service',
  );
}

const str = (v: unknown) => (v === undefined ? undefined : String(v));

function required(opts: Record<string, unknown>, key: string, flag: string, example: string): string {
  const v = opts[key];
  if (v === undefined || String(v).trim() === '') throw new UsageError(`missing ${flag} (${example})`);
  return String(v).trim();
}

/** A mobile number as the service stores contacts: optional +, 8-15 digits. */
function contactFlag(raw: string): string {
  const c = raw.replace(/[\s-]/g, '');
  if (!/^\+?\d{8,15}$/.test(c))
    throw new UsageError(`--contact must be a phone number like +919876543210: got ${JSON.stringify(raw)}`);
  return c;
}

function emailFlag(raw: string): string {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(raw))
    throw new UsageError(`--email must be an e-mail address: got ${JSON.stringify(raw)}`);
  return raw;
}

export async function transfer({ args, opts }: Input, ctx: Context): Promise<CommandResult> {
  discontinued(ctx);
  const paymentId = idArg(args[0], 'payment');
  const customer = idArg(required(opts, 'customer', '--customer', 'cust_…'), 'customer');
  const amount = amountFlag(required(opts, 'amount', '--amount', 'paise'), INR)!;
  const api = await ctx.api();
  const req = api.prepare('transferPayment', {
    params: { id: paymentId },
    body: { transfers: [{ customer, amount, currency: INR, notes: notesFlag(opts.note) }] },
  });
  if (ctx.settings.dryRun) return { type: 'dry-run', requests: [req] };
  const data = await moveMoney(
    ctx,
    req,
    `Transfer ${formatMoney(amount, INR)} from payment ${paymentId} into the wallet of ${customer}?`,
    `check \`payctl wallet statement ${customer} --from today\` for the transfer before sending it again`,
  );
  return one('transfer', data);
}

export async function credit({ opts }: Input, ctx: Context): Promise<CommandResult> {
  discontinued(ctx);
  const customer = idArg(required(opts, 'customer', '--customer', 'cust_…'), 'customer');
  const amount = amountFlag(required(opts, 'amount', '--amount', 'paise'), INR)!;
  const api = await ctx.api();
  const req = api.prepare('createDirectTransfer', {
    body: { customer_id: customer, amount, currency: INR, notes: notesFlag(opts.note) },
  });
  if (ctx.settings.dryRun) return { type: 'dry-run', requests: [req] };
  const data = await moveMoney(
    ctx,
    req,
    `Credit ${formatMoney(amount, INR)} (cashback) to the wallet of ${customer}?`,
    `check \`payctl wallet statement ${customer} --from today\` before crediting again`,
  );
  return one('transfer', data);
}

export async function pay({ opts }: Input, ctx: Context): Promise<CommandResult> {
  discontinued(ctx);
  const customer = idArg(required(opts, 'customer', '--customer', 'cust_…'), 'customer');
  const order = idArg(required(opts, 'order', '--order', 'order_…'), 'order');
  const amount = amountFlag(required(opts, 'amount', '--amount', 'paise'), INR)!;
  const body = {
    method: 'wallet',
    wallet: 'openwallet',
    customer_id: customer,
    order_id: order,
    amount,
    currency: INR,
    contact: contactFlag(required(opts, 'contact', '--contact', '+919876543210')),
    email: emailFlag(required(opts, 'email', '--email', 'name@example.com')),
    description: str(opts.description),
    notes: notesFlag(opts.note),
  };
  const api = await ctx.api();
  const req = api.prepare('createWalletPayment', { body });
  if (ctx.settings.dryRun) return { type: 'dry-run', requests: [req] };
  const data = await moveMoney(
    ctx,
    req,
    `Pay ${formatMoney(amount, INR)} for order ${order} from the wallet of ${customer}?`,
    `check \`payctl wallet statement ${customer} --from today\` and the order before paying again`,
  );
  return one('wallet_payment', data);
}

export async function balance({ args }: Input, ctx: Context): Promise<CommandResult> {
  discontinued(ctx);
  const api = await ctx.api();
  const req = api.prepare('getWalletBalance', { params: { id: idArg(args[0], 'customer') } });
  if (ctx.settings.dryRun) return { type: 'dry-run', requests: [req] };
  return one('wallet_balance', await api.execute(req));
}

export async function fundAccountCreate({ opts }: Input, ctx: Context): Promise<CommandResult> {
  discontinued(ctx);
  const body = {
    customer_id: idArg(required(opts, 'customer', '--customer', 'cust_…'), 'customer'),
    account_type: 'bank_account',
    bank_account: {
      name: required(opts, 'name', '--name', 'account holder name'),
      ifsc: required(opts, 'ifsc', '--ifsc', 'e.g. HDFC0000053').toUpperCase(),
      account_number: required(opts, 'accountNumber', '--account-number', 'digits'),
    },
  };
  const api = await ctx.api();
  const req = api.prepare('createFundAccount', { body });
  if (ctx.settings.dryRun) return { type: 'dry-run', requests: [req] };
  return one('fund_account', await api.execute(req));
}

export async function payout({ args, opts }: Input, ctx: Context): Promise<CommandResult> {
  discontinued(ctx);
  const customer = idArg(args[0], 'customer');
  const amount = amountFlag(required(opts, 'amount', '--amount', 'paise'), INR)!;
  const narration = str(opts.narration);
  if (narration !== undefined && (!NARRATION_PATTERN.test(narration) || narration.length > 30)) {
    throw new UsageError('--narration may hold at most 30 characters: a-z, A-Z, 0-9 and space');
  }
  const body = {
    fund_account_id: idArg(required(opts, 'fundAccount', '--fund-account', 'fa_…'), 'fund_account'),
    purpose: required(opts, 'purpose', '--purpose', 'e.g. refund, cashback, payout'),
    amount,
    currency: INR,
    notes: notesFlag(opts.note),
    reference_id: str(opts.referenceId),
    narration,
  };
  const api = await ctx.api();
  const req = api.prepare('createPayout', { params: { id: customer }, body });
  if (ctx.settings.dryRun) return { type: 'dry-run', requests: [req] };
  const data = await moveMoney(
    ctx,
    req,
    `Pay out ${formatMoney(amount, INR)} from the wallet of ${customer} to fund account ${body.fund_account_id}?`,
    `check \`payctl wallet statement ${customer} --from today\` for the payout before sending it again`,
  );
  return one('payout', data);
}

export async function statement(input: Input, ctx: Context): Promise<CommandResult> {
  discontinued(ctx);
  return exportStatement(input, ctx);
}
