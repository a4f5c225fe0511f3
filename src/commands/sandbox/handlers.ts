import { sandboxAdmin } from './admin-client';
import type { CustomerInput } from './admin-client';
import { formatMoney } from '../../output/money';
import { plural } from '../../output/plural';
import { localTime } from '../../output/time';
import { parseDuration } from '../../contract/values/duration';
import type { PaymentMethod } from '../../contract/vocabulary';
import type { Context } from '../context';
import { idArg, intFlag, need } from '../flags';
import { many, one } from '../result';
import type { CommandResult } from '../result';

const admin = async (ctx: Context) => sandboxAdmin(await ctx.api());

export interface PayOptions {
  /** An order id (order_…), or a subscription id (sub_…) to authorise. */
  id: string;
  method: PaymentMethod;
  fail: boolean;
  email?: string;
  contact?: string;
}

/** The customer's side of checkout: pays an order, or authorises a subscription. */
export async function simulatePayment(opts: PayOptions, ctx: Context): Promise<CommandResult> {
  const { method, fail } = opts;
  if (opts.id.trim().startsWith('sub_')) {
    const subscription_id = idArg(opts.id, 'subscription');
    return one('subscription', await (await admin(ctx)).authorize({ subscription_id, method, fail }));
  }
  const body = { order_id: idArg(opts.id, 'order'), method, fail, email: opts.email, contact: opts.contact };
  return one('payment', await (await admin(ctx)).checkout(body));
}

export async function showClock(_opts: object, ctx: Context): Promise<CommandResult> {
  return one('generic', await (await admin(ctx)).clock());
}

export async function advanceClock(opts: { duration: string }, ctx: Context): Promise<CommandResult> {
  const seconds = need(parseDuration(opts.duration), 'DURATION');
  return one('generic', await (await admin(ctx)).advance(seconds));
}

export async function resetSandbox(_opts: object, ctx: Context): Promise<CommandResult> {
  await (await admin(ctx)).reset();
  return { type: 'done', message: 'sandbox reset: every resource and counter deleted, clock back to real time' };
}

export interface SeedOptions {
  orders?: string;
  authorized?: string;
  /** Customers with wallets, each with this many mixed statement entries. */
  wallet?: string;
}

/** The calendar day of a Unix time in `tz`, as `--from`/`--to` take it. */
const day = (unix: number, tz: string) => localTime(unix, tz).slice(0, 10);

/** Prints the ids it made, one a line for `| payctl payments capture --input -` (customer ids with --wallet). */
export async function seedSandbox(opts: SeedOptions, ctx: Context): Promise<CommandResult> {
  const orders = intFlag(opts.orders, 'N', 0, 100_000);
  const authorized = intFlag(opts.authorized, '--authorized', 0, 100_000);
  const wallets = intFlag(opts.wallet, '--wallet', 1, 10_000);
  const body = {
    orders: orders ?? (authorized === undefined && wallets === undefined ? 20 : 0),
    authorized: authorized ?? 0,
    ...(wallets ? { wallets } : {}),
  };
  const seeded = await (await admin(ctx)).seed(body);
  if (seeded.wallet_customer_ids && seeded.wallet_span) {
    const walletIds = seeded.wallet_customer_ids;
    const from = day(seeded.wallet_span.from, ctx.settings.tz);
    const to = day(seeded.wallet_span.to, ctx.settings.tz);
    ctx.notice(
      `seeded ${plural(walletIds.length, 'customer')} with wallets, ` +
        `${plural(wallets ?? 0, 'statement entry', 'statement entries')} ` +
        `each from ${from} to ${to} (credits, wallet payments, refunds, payouts; one bank rejects payouts: ` +
        'a reversal entry each); printing customer ids',
    );
    ctx.notice(`try: payctl wallet statement ${walletIds[0]} --from ${from} --to ${to}`);
    return { type: 'lines', lines: walletIds, json: walletIds };
  }
  const ids = body.authorized ? seeded.payment_ids : seeded.order_ids;
  const made = [plural(seeded.order_ids.length, 'order'), plural(seeded.payment_ids.length, 'authorized payment')];
  if (seeded.subscription_ids?.length)
    made.push(
      plural(seeded.customer_ids.length, 'customer'),
      plural(seeded.plan_ids?.length ?? 0, 'plan'),
      `${plural(seeded.subscription_ids.length, 'subscription')} (one in each status)`,
    );
  ctx.notice(`seeded ${made.join(', ')}; printing ${body.authorized ? 'payment' : 'order'} ids`);
  return { type: 'lines', lines: ids, json: ids };
}

/** The merchant account balance that transfers into wallets (`wallet credit`, `wallet transfer`) draw on. */
export async function showAccount(_opts: object, ctx: Context): Promise<CommandResult> {
  const account = await (await admin(ctx)).account();
  if (ctx.settings.format === 'table' && !ctx.settings.out)
    ctx.notice(
      `merchant account balance ${formatMoney(account.balance, account.currency)}: ` +
        'what wallet credits and transfers draw on (captured payments add to it, refunds and transfers take from it)',
    );
  return one('generic', account);
}

export async function showStats(_opts: object, ctx: Context): Promise<CommandResult> {
  return one('generic', await (await admin(ctx)).stats());
}

export async function listEvents(_opts: object, ctx: Context): Promise<CommandResult> {
  return many('event', (await (await admin(ctx)).events()).items);
}

export async function createCustomer(opts: CustomerInput, ctx: Context): Promise<CommandResult> {
  return one('customer', await (await admin(ctx)).createCustomer(opts));
}
export { createAccount, deleteSnapshot, listSnapshots, loadSnapshot, saveSnapshot } from './accounts';
