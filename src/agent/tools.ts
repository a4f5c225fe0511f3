import * as z from 'zod/mini';
import type { ApiClient } from '../client/client';
import { refundBaseline } from '../client/refund';
import { endpoints } from '../contract/endpoints';
import type { Endpoint, EndpointName } from '../contract/endpoints';
import { UsageError } from '../contract/errors';
import { LIMITS } from '../contract/limits';
import { isJsonObject } from '../contract/values/json';
import type { Context } from '../commands/context';
import { amountFlag, currencyFlag, idArg, intFlag, rangeFlags } from '../commands/flags';
import type { CommandResult } from '../commands/result';
import { formatMoney } from '../output/money';
import type { Plan } from './rails';
import { executeRefund, planRefund } from './refund';

/** What a tool runs with: the CLI's own context, and two made from it for planning and for sending. */
export interface ToolEnv {
  ctx: Context;
  /** --dry-run: a handler run in it returns the requests it would send, and sends nothing. */
  planning: Context;
  /** Confirmed: the handler sends without asking (the confirmation was the token or the human). */
  sending: Context;
  api(): Promise<ApiClient>;
}

type Args = Record<string, unknown>;

export interface Tool {
  name: string;
  description: string;
  /** The service endpoint it calls: its `moves` flag says whether its amount counts against the caps. */
  endpoint: EndpointName;
  input: z.ZodMiniObject;
  write: boolean;
  read?: (args: Args, env: ToolEnv) => Promise<unknown>;
  plan?: (args: Args, env: ToolEnv) => Promise<Plan>;
  execute?: (plan: Plan, env: ToolEnv) => Promise<unknown>;
}

const str = (description: string) => z.string().register(z.globalRegistry, { description });
const optStr = (description: string) => z.optional(str(description));
const minor = (description: string) => z.int().check(z.positive()).register(z.globalRegistry, { description });
const notes = z.optional(
  z
    .record(z.string(), z.string())
    .register(z.globalRegistry, { description: `notes, at most ${LIMITS.notesPairs} string pairs` }),
);
const page = {
  count: z.optional(
    z
      .int()
      .check(z.minimum(1), z.maximum(LIMITS.count))
      .register(z.globalRegistry, { description: `rows in this page, 1-${LIMITS.count} (default 10)` }),
  ),
  skip: z.optional(
    z
      .int()
      .check(z.minimum(0))
      .register(z.globalRegistry, { description: 'rows to skip (from the next_skip of the page before)' }),
  ),
  from: optStr('only rows created at or after: Unix seconds, an ISO date or date-time, or a relative form like 7d'),
  to: optStr('only rows created at or before (same forms as from)'),
};

const notesArgs = (raw: unknown) =>
  isJsonObject(raw) ? Object.entries(raw).map(([k, v]) => `${k}=${String(v)}`) : ([] as string[]);

/** One page, said to be one page: the model is told where the next starts, never handed a silent first page. */
async function onePage(
  env: ToolEnv,
  name: EndpointName,
  args: Args,
  params?: Record<string, string>,
  extra: Args = {},
) {
  const count = intFlag(args.count === undefined ? undefined : String(args.count), 'count', 1, LIMITS.count) ?? 10;
  const skip = intFlag(args.skip === undefined ? undefined : String(args.skip), 'skip', 0) ?? 0;
  const range = await rangeFlags(env.ctx, { from: args.from, to: args.to });
  const api = await env.api();
  const query = { count, skip, ...range, ...extra };
  const body = await api.call<{ items?: unknown[] }>(name as 'listOrders', { params, query: query as never });
  const items = Array.isArray(body.items) ? body.items : [];
  const more = items.length === count;
  return {
    items,
    page: { count, skip, returned: items.length, more_may_exist: more, next_skip: more ? skip + count : null },
    note: more
      ? `this is one page of ${count}; more may exist: call again with skip=${skip + count}`
      : 'this is the last page',
  };
}

const dataOf = (result: CommandResult) => {
  if (result.type === 'one') return result.data;
  if (result.type === 'dry-run') return { requests: result.requests };
  throw new Error(`unexpected result ${result.type}`);
};

/** Plans a write by running the CLI handler itself in --dry-run: what it would send is the plan. */
function viaHandler<O>(
  tool: string,
  handler: () => Promise<(opts: O, ctx: Context) => Promise<CommandResult>>,
  options: (args: Args) => O,
  state?: (args: Args, env: ToolEnv) => Promise<unknown>,
) {
  return {
    plan: async (args: Args, env: ToolEnv): Promise<Plan> => {
      const run = await handler();
      const result = await run(options(args), env.planning);
      if (result.type !== 'dry-run') throw new Error(`${tool}: the handler did not plan`);
      const requests = result.requests.map((r) => ({ method: r.method, path: r.path, body: r.body }));
      const moving = result.requests.find((r) => (endpoints[r.endpoint] as Endpoint).moves);
      const body = (moving?.body ?? {}) as { amount?: unknown; currency?: unknown; transfers?: { amount?: unknown }[] };
      const amount = moving ? Number(body.amount ?? body.transfers?.[0]?.amount ?? 0) : 0;
      const currency = typeof body.currency === 'string' ? body.currency : moving ? 'INR' : undefined;
      return {
        tool,
        args,
        requests,
        amount,
        currency,
        amountText: currency ? formatMoney(amount, currency) : undefined,
        state: state ? await state(args, env) : undefined,
      };
    },
    execute: async (plan: Plan, env: ToolEnv) => dataOf(await (await handler())(options(plan.args), env.sending)),
  };
}

const s = (v: unknown) => (v === undefined ? undefined : String(v));

export const TOOLS: Tool[] = [
  {
    name: 'payments_get',
    description: 'Fetch one payment, as the service returns it.',
    endpoint: 'getPayment',
    write: false,
    input: z.object({ payment_id: str('payment id, pay_…') }),
    read: async (a, env) => (await env.api()).call('getPayment', { params: { id: idArg(a.payment_id, 'payment') } }),
  },
  {
    name: 'payments_list',
    description: 'List payments, most recent first, one page at a time (the result says where the next page starts).',
    endpoint: 'listPayments',
    write: false,
    input: z.object(page),
    read: (a, env) => onePage(env, 'listPayments', a),
  },
  {
    name: 'orders_list',
    description: 'List orders, most recent first, one page at a time.',
    endpoint: 'listOrders',
    write: false,
    input: z.object({ ...page, receipt: optStr('only orders with this receipt') }),
    read: (a, env) => onePage(env, 'listOrders', a, undefined, { receipt: s(a.receipt) }),
  },
  {
    name: 'refunds_list',
    description: "List refunds, most recent first, one page at a time: all of them, or one payment's (payment_id).",
    endpoint: 'listRefunds',
    write: false,
    input: z.object({ payment_id: optStr('only the refunds of this payment, pay_…'), ...page }),
    read: (a, env) =>
      a.payment_id === undefined
        ? onePage(env, 'listRefunds', a)
        : onePage(env, 'listPaymentRefunds', a, { id: idArg(a.payment_id, 'payment') }),
  },
  {
    name: 'refunds_get',
    description: 'Fetch one refund.',
    endpoint: 'getRefund',
    write: false,
    input: z.object({ refund_id: str('refund id, rfnd_…') }),
    read: async (a, env) => (await env.api()).call('getRefund', { params: { id: idArg(a.refund_id, 'refund') } }),
  },
  {
    name: 'subscriptions_get',
    description: 'Fetch one subscription.',
    endpoint: 'getSubscription',
    write: false,
    input: z.object({ subscription_id: str('subscription id, sub_…') }),
    read: async (a, env) =>
      (await env.api()).call('getSubscription', { params: { id: idArg(a.subscription_id, 'subscription') } }),
  },
  {
    name: 'wallet_balance',
    description: "A customer's wallet balance (discontinued wallet product), in paise.",
    endpoint: 'getWalletBalance',
    write: false,
    input: z.object({ customer_id: str('customer id, cust_…') }),
    read: async (a, env) =>
      (await env.api()).call('getWalletBalance', { params: { id: idArg(a.customer_id, 'customer') } }),
  },
  {
    name: 'wallet_statement',
    description: "A customer's wallet statement, most recent first, one page at a time.",
    endpoint: 'getWalletStatement',
    write: false,
    input: z.object({ customer_id: str('customer id, cust_…'), ...page }),
    read: (a, env) => onePage(env, 'getWalletStatement', a, { id: idArg(a.customer_id, 'customer') }),
  },
  {
    name: 'payments_capture',
    description:
      'Plan the capture of an authorized payment (its full amount). Returns a plan and a confirmation token; nothing moves until `confirm` is called with the token.',
    endpoint: 'capturePayment',
    write: true,
    input: z.object({
      payment_id: str('payment id, pay_…'),
      amount: z.optional(minor('must equal the payment amount (smallest currency unit)')),
      currency: optStr('must equal the payment currency'),
    }),
    plan: async (a, env) => {
      const id = idArg(a.payment_id, 'payment');
      const api = await env.api();
      const p = await api.call<Record<string, unknown>>('getPayment', { params: { id } });
      if (p.status !== 'authorized')
        throw new UsageError(`payment_id: ${id} is ${String(p.status)}; only an authorized payment can be captured`);
      const amount = Number(p.amount);
      const currency = String(p.currency);
      const asked = amountFlag(s(a.amount), currency, 'amount');
      if (asked !== undefined && asked !== amount)
        throw new UsageError(`amount: a capture must be the payment's full amount, ${formatMoney(amount, currency)}`);
      if (a.currency !== undefined && currencyFlag(String(a.currency), 'currency') !== currency)
        throw new UsageError(`currency: the payment is in ${currency}`);
      return {
        tool: 'payments_capture',
        args: a,
        requests: [{ method: 'POST', path: `/payments/${id}/capture`, body: { amount, currency } }],
        amount,
        currency,
        amountText: formatMoney(amount, currency),
        state: { id, status: p.status, amount, currency },
      };
    },
    execute: async (plan, env) => {
      const { captureOnce } = await import('../commands/payments/capture-request');
      const body = plan.requests[0]!.body as { amount: number; currency: string };
      const id = idArg(plan.args.payment_id, 'payment');
      return dataOf(await captureOnce(env.sending, await env.api(), id, body.amount, body.currency));
    },
  },
  {
    name: 'payments_refund',
    description:
      'Plan a refund of a captured payment, in full (no amount) or in part. Returns a plan with the payment as read now and a confirmation token; nothing moves until `confirm`.',
    endpoint: 'refundPayment',
    write: true,
    input: z.object({
      payment_id: str('payment id, pay_…'),
      amount: z.optional(minor('amount to refund, smallest currency unit (paise); default all that remains')),
      receipt: optStr('your reference'),
      notes,
    }),
    plan: (a, env) => planRefund(a, env, refundBaseline),
    execute: executeRefund,
  },
  {
    name: 'wallet_transfer',
    description: "Plan a transfer from a captured payment into a customer's wallet (INR, paise).",
    endpoint: 'transferPayment',
    write: true,
    input: z.object({
      payment_id: str('payment id, pay_…'),
      customer_id: str('customer id, cust_…'),
      amount: minor('paise'),
      notes,
    }),
    ...viaHandler(
      'wallet_transfer',
      async () => (await import('../commands/wallet/handlers')).transferPayment,
      (a) => ({
        paymentId: s(a.payment_id)!,
        customer: s(a.customer_id)!,
        amount: s(a.amount)!,
        notes: notesArgs(a.notes),
      }),
      async (a, env) => (await env.api()).call('getPayment', { params: { id: idArg(a.payment_id, 'payment') } }),
    ),
  },
  {
    name: 'wallet_credit',
    description: "Plan a direct credit (cashback) into a customer's wallet (INR, paise).",
    endpoint: 'createDirectTransfer',
    write: true,
    input: z.object({ customer_id: str('customer id, cust_…'), amount: minor('paise'), notes }),
    ...viaHandler(
      'wallet_credit',
      async () => (await import('../commands/wallet/handlers')).creditWallet,
      (a) => ({ customer: s(a.customer_id)!, amount: s(a.amount)!, notes: notesArgs(a.notes) }),
      async (a, env) =>
        (await env.api()).call('getWalletBalance', { params: { id: idArg(a.customer_id, 'customer') } }),
    ),
  },
  {
    name: 'wallet_payout',
    description: "Plan a payout from a customer's wallet to their bank fund account (INR, paise).",
    endpoint: 'createPayout',
    write: true,
    input: z.object({
      customer_id: str('customer id, cust_…'),
      fund_account_id: str('fund account id, fa_…'),
      amount: minor('paise'),
      purpose: str('reason for the payout, e.g. refund'),
      reference_id: optStr(`your reference, at most ${LIMITS.referenceIdChars} characters`),
      narration: optStr(`bank statement text, at most ${LIMITS.narrationChars} characters`),
      notes,
    }),
    ...viaHandler(
      'wallet_payout',
      async () => (await import('../commands/wallet/handlers')).createPayout,
      (a) => ({
        customer: s(a.customer_id)!,
        fundAccount: s(a.fund_account_id)!,
        amount: s(a.amount)!,
        purpose: s(a.purpose)!,
        referenceId: s(a.reference_id),
        narration: s(a.narration),
        notes: notesArgs(a.notes),
      }),
      async (a, env) =>
        (await env.api()).call('getWalletBalance', { params: { id: idArg(a.customer_id, 'customer') } }),
    ),
  },
  {
    name: 'orders_create',
    description: 'Plan the creation of an order (moves no money).',
    endpoint: 'createOrder',
    write: true,
    input: z.object({
      amount: minor('smallest currency unit (paise for INR)'),
      currency: str('ISO 4217 code, e.g. INR'),
      receipt: optStr(`your reference, at most ${LIMITS.receiptChars} characters`),
      manual_capture: z.optional(z.boolean().register(z.globalRegistry, { description: 'authorize only' })),
      notes,
    }),
    ...viaHandler(
      'orders_create',
      async () => (await import('../commands/orders/handlers')).createOrder,
      (a) => ({
        amount: s(a.amount)!,
        currency: s(a.currency)!,
        receipt: s(a.receipt),
        manualCapture: a.manual_capture === true,
        notes: notesArgs(a.notes),
      }),
    ),
  },
  {
    name: 'subscriptions_cancel',
    description: 'Plan the cancellation of a subscription, now or at the end of the current cycle.',
    endpoint: 'cancelSubscription',
    write: true,
    input: z.object({
      subscription_id: str('subscription id, sub_…'),
      at_cycle_end: z.optional(
        z.boolean().register(z.globalRegistry, { description: 'let the current billing cycle complete' }),
      ),
    }),
    ...viaHandler(
      'subscriptions_cancel',
      async () => (await import('../commands/subscriptions/handlers')).cancelSubscription,
      (a) => ({ id: s(a.subscription_id)!, atCycleEnd: a.at_cycle_end === true }),
      async (a, env) =>
        (await env.api()).call('getSubscription', { params: { id: idArg(a.subscription_id, 'subscription') } }),
    ),
  },
];
