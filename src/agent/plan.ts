import type { ApiClient } from '../client/client';
import { decideRefund, findRefund, refundBaseline, resendWaitMs } from '../client/refund';
import type { Context } from '../commands/context';
import type { CommandGroup } from '../commands/declare';
import { amountFlag, currencyFlag, idArg } from '../commands/flags';
import { refundAmount, refundIdentity } from '../commands/payments/refund-single';
import { lastSend } from '../commands/payments/refund-sends';
import { printed } from '../commands/invocation';
import type { CommandResult } from '../commands/result';
import { endpoints } from '../contract/endpoints';
import type { Endpoint } from '../contract/endpoints';
import { OutcomeUnknownError, UsageError } from '../contract/errors';
import { amountOf } from '../contract/rules';
import { formatMoney } from '../output/money';
import { stripInvisible } from '../output/sanitize';
import { argvOf, runTool } from './derive';
import type { DerivedTool } from './derive';
import type { Plan } from './rails';

/** What a tool runs with: the CLI's own context, and two made from it for planning and for sending. */
export interface ToolEnv {
  /** The command groups the tools come from: a tool runs its command from their declarations. */
  groups: readonly CommandGroup[];
  ctx: Context;
  /** --dry-run: a handler run in it returns the requests it would send, and sends nothing. */
  planning: Context;
  /** Confirmed: the handler sends without asking (the confirmation was the token or the human). */
  sending: Context;
  api(): Promise<ApiClient>;
  /** A refund of this payment whose outcome the audit log holds as unknown, if any. */
  unknownRefund(paymentId: string): { key: string; amount: number; sentAtMs?: number } | undefined;
  /** What the command said on the way (payctl's own lines), handed back with this call's result. */
  notices: string[];
}

type Args = Record<string, unknown>;

/** What a plan fixes before the command's own dry run: the figures read now, and the refund's identity. */
interface Fixed {
  args: Args;
  state?: Record<string, unknown>;
  note?: string;
}

const given = (v: unknown) => (v === undefined || v === null ? undefined : String(v));

/**
 * A refund's amount (all that remains when none is given) and its key, fixed at planning so the plan
 * names the one refund it can ever make. A refund of the payment with no known outcome on record (unknown, or its outcome never written)
 * lends the plan its key (found: nothing is sent), or the plan is refused until it is checked, or while
 * that earlier request may still arrive.
 */
async function fixRefund(a: Args, env: ToolEnv): Promise<Fixed> {
  const id = idArg(a.payment_id, 'payment');
  const b = await refundBaseline(await env.api(), id);
  const state = { id, status: stripInvisible(b.status), amount: b.amount, amount_refunded: b.amountRefunded };
  const asked = amountFlag(given(a.amount), b.currency, 'amount');
  const pending = env.unknownRefund(id);
  const key = given(a.idempotency_key);
  const money = (v: number) => formatMoney(v, b.currency);
  if (pending) {
    if ((asked !== undefined && asked !== pending.amount) || (key !== undefined && key !== pending.key))
      throw new UsageError(
        `a refund of ${money(pending.amount)} of ${id} has no known outcome on record (key ${pending.key}): ` +
          `check it first with payments_refund {"payment_id": "${id}", "idempotency_key": "${pending.key}"} ` +
          '(it looks for that refund and sends only if none carries the key); nothing was sent',
      );
    await refuseWhileOnItsWay(env, id, pending);
    return {
      args: { ...a, amount: String(pending.amount), idempotency_key: pending.key },
      state: { ...state, currency: b.currency },
      note:
        `a refund of ${money(pending.amount)} of this payment with an unknown outcome is on record: this plan ` +
        `reuses its key ${pending.key}: if a refund carries that key nothing is sent, and it is sent again only ` +
        'once the earlier request can no longer arrive',
    };
  }
  const identity = refundIdentity(key, undefined);
  return {
    args: { ...a, amount: String(refundAmount(b, asked)), idempotency_key: identity.key },
    state: { ...state, currency: b.currency },
  };
}

/**
 * A re-plan of an unknown refund, while its first request may still arrive and no refund carries its
 * key yet, is refused with the time to wait and the check (the CLI's rule: client/refund.ts resendWaitMs).
 */
async function refuseWhileOnItsWay(env: ToolEnv, id: string, pending: { key: string; sentAtMs?: number }) {
  const now = env.ctx.nowMs();
  const sent = lastSend(env.ctx.paths.state, pending.key) ?? {
    sentAtMs: pending.sentAtMs ?? NaN,
    deadlineMs: env.ctx.settings.timeoutMs,
  };
  const decision = decideRefund(
    'resume',
    await findRefund(await env.api(), id, pending.key),
    false,
    resendWaitMs(sent, now),
  );
  if (decision.action !== 'wait') return;
  const until = new Date(now + decision.waitMs).toISOString().replace(/\.\d+Z$/, 'Z');
  const check = `check with payments_get {"payment_id": "${id}"} (\`${printed(env.ctx.settings, ['payments', 'get', id])}\`)`;
  const again = `plan it again after ${until} (in ${Math.ceil(decision.waitMs / 1000)} s)`;
  throw new OutcomeUnknownError(
    `refund of ${id} with key ${pending.key}: ${decision.why}; nothing was sent: ${check}; ${again}`,
    again,
  );
}

/** A capture is of the payment's full amount: read now, and fixed in the plan. */
async function fixCapture(a: Args, env: ToolEnv): Promise<Fixed> {
  const id = idArg(a.payment_id, 'payment');
  const p = await (await env.api()).call<Record<string, unknown>>('getPayment', { params: { id } });
  const currency = currencyFlag(given(a.currency) ?? String(p.currency ?? ''), 'currency');
  const amount = amountOf(p.amount);
  return {
    args: { ...a, amount: given(a.amount) ?? String(amount), currency },
    state: { id, status: stripInvisible(String(p.status)), amount, currency },
  };
}

const FIXERS: Partial<Record<string, (a: Args, env: ToolEnv) => Promise<Fixed>>> = {
  refundPayment: fixRefund,
  capturePayment: fixCapture,
};

/** Plans a write by running its command in --dry-run: what it would send is the plan. */
export async function planWrite(tool: DerivedTool, args: Args, env: ToolEnv): Promise<Plan> {
  argvOf(tool, args); // the fields checked before anything is read
  const fixed = (await FIXERS[tool.endpoint]?.(args, env)) ?? { args };
  const result = await runTool(env.groups, tool, fixed.args, env.planning);
  if (result.type !== 'dry-run') throw new Error(`${tool.name}: its command did not plan`);
  const moving = result.requests.find((r) => (endpoints[r.endpoint] as Endpoint).moves);
  const body = (moving?.body ?? {}) as { amount?: unknown; currency?: unknown; transfers?: { amount?: unknown }[] };
  const amount = moving ? Number(body.amount ?? body.transfers?.[0]?.amount ?? 0) : 0;
  if (!Number.isSafeInteger(amount) || amount < 0) throw new Error(`${tool.name}: the plan's amount is not known`);
  const currency = typeof body.currency === 'string' ? body.currency : (fixed.state?.currency as string | undefined);
  const shown = currency ?? (moving ? 'INR' : undefined);
  return {
    tool: tool.name,
    args: fixed.args,
    requests: result.requests.map((r) => ({ method: r.method, path: r.path, body: r.body })),
    amount,
    currency: shown,
    amountText: shown ? formatMoney(amount, shown) : undefined,
    state: fixed.state,
    note: fixed.note,
  };
}

/** What a command's result holds, as data: one record, a page of records, or what a dry run would send. */
export async function dataOf(result: CommandResult): Promise<unknown> {
  switch (result.type) {
    case 'one':
      await result.finish?.();
      return result.data;
    case 'many': {
      const items: unknown[] = [];
      for await (const item of result.items) items.push(item);
      await result.finish?.();
      return items;
    }
    case 'dry-run':
      return { requests: result.requests.map((r) => ({ method: r.method, path: r.path, body: r.body })) };
    case 'lines':
      return result.json ?? result.lines;
    case 'done':
      return { message: result.message ?? 'done' };
    default:
      throw new Error(`unexpected result ${result.type}`);
  }
}
