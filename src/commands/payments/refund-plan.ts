import { decideRefund, findRefund, refundBaseline, resendWaitMs } from '../../client/refund';
import type { ApiClient } from '../../client/client';
import { OutcomeUnknownError, UsageError } from '../../contract/errors';
import { formatMoney } from '../../output/money';
import { stripInvisible } from '../../output/sanitize';
import type { Context, UnknownRefund } from '../context';
import { printed } from '../invocation';
import type { DryRunResult } from '../result';
import { lastSend } from './refund-sends';
import { keyedRequest, refundAmount, refundIdentity } from './refund-single';

/** What a refund is asked for before anything is read: the key only when the user gave one. */
export interface RefundAsk {
  amount?: number;
  receipt?: string;
  notes?: Record<string, string>;
  key?: string;
}

/** How the caller's user runs a command: a tool call for an assistant, else the CLI command line. */
function commandFor(ctx: Context, words: string[], args: Record<string, string>): string {
  if (ctx.caller) return ctx.caller.command(words, args);
  const { id, ...options } = args;
  const flags = Object.entries(options).flatMap(([k, v]) => [`--${k}`, v]);
  return `\`${printed(ctx.settings, [...words, ...(id === undefined ? [] : [id]), ...flags])}\``;
}

/**
 * A refund's plan, read now (`--dry-run --read`, and every plan `payctl mcp` shows): its amount (all
 * that remains when none is given) and its key are fixed, so the plan names the one refund it can ever
 * make, and shows the request exactly as it would be sent. A refund of the payment that the caller holds
 * with no known outcome lends the plan its key (a refund carrying it found: nothing is sent), or the plan
 * is refused until it is checked, or while that earlier request may still arrive.
 */
export async function planRefund(ctx: Context, id: string, ask: RefundAsk): Promise<DryRunResult> {
  const api = await ctx.api();
  const b = await refundBaseline(api, id);
  const state = {
    id,
    status: stripInvisible(b.status),
    amount: b.amount,
    amount_refunded: b.amountRefunded,
    currency: b.currency,
  };
  const money = (v: number) => formatMoney(v, b.currency);
  const pending = ctx.caller?.unknownRefund(id);
  if (!pending) {
    const request = { ...ask, ...refundIdentity(ask.key, ask.notes) };
    // A key names one refund: one the caller sent under it before fixes the amount (a different one is
    // refused; more than remains, the send refuses it), whatever that earlier refund's outcome.
    const earlier = ask.key === undefined ? undefined : ctx.caller?.keyedRefund(id, ask.key);
    if (earlier !== undefined && ask.amount !== undefined && ask.amount !== earlier)
      throw new UsageError(
        `key ${ask.key} was sent for a refund of ${money(earlier)} of ${id}: under it a refund is that amount ` +
          'or none; give no key for a new refund; nothing was sent',
      );
    const amount = earlier ?? refundAmount(b, ask.amount);
    const fixed = { amount: String(amount), 'idempotency-key': request.key };
    return { type: 'dry-run', requests: [keyedRequest(api, id, amount, request)], fixed, state };
  }
  if ((ask.amount !== undefined && ask.amount !== pending.amount) || (ask.key !== undefined && ask.key !== pending.key))
    throw new UsageError(
      `a refund of ${money(pending.amount)} of ${id} has no known outcome on record (key ${pending.key}): ` +
        `check it first with ${commandFor(ctx, ['payments', 'refund'], { id, 'idempotency-key': pending.key })} ` +
        '(it looks for that refund and sends only if none carries the key); nothing was sent',
    );
  await refuseWhileOnItsWay(ctx, api, id, pending);
  // Not checked against what remains: if that refund landed, the send finds it by its key and sends nothing.
  const request = { ...ask, ...refundIdentity(pending.key, ask.notes) };
  return {
    type: 'dry-run',
    requests: [keyedRequest(api, id, pending.amount, request)],
    fixed: { amount: String(pending.amount), 'idempotency-key': pending.key },
    state,
    note:
      `a refund of ${money(pending.amount)} of this payment with an unknown outcome is on record: this plan ` +
      `reuses its key ${pending.key}: if a refund carries that key nothing is sent, and it is sent again only ` +
      'once the earlier request can no longer arrive',
  };
}

/**
 * A plan reusing an unknown refund's key, while its first request may still arrive and no refund carries
 * the key yet, is refused with the time to wait and the check (the rule of client/refund.ts resendWaitMs).
 */
async function refuseWhileOnItsWay(ctx: Context, api: ApiClient, id: string, pending: UnknownRefund) {
  const now = ctx.nowMs();
  const sent = lastSend(ctx.paths.state, pending.key) ?? {
    sentAtMs: pending.sentAtMs ?? NaN,
    deadlineMs: ctx.settings.timeoutMs,
  };
  const decision = decideRefund('resume', await findRefund(api, id, pending.key), false, resendWaitMs(sent, now));
  if (decision.action !== 'wait') return;
  const until = new Date(now + decision.waitMs).toISOString().replace(/\.\d+Z$/, 'Z');
  const check = `check with ${commandFor(ctx, ['payments', 'get'], { id })}`;
  const again = `plan it again after ${until} (in ${Math.ceil(decision.waitMs / 1000)} s)`;
  throw new OutcomeUnknownError(
    `refund of ${id} with key ${pending.key}: ${decision.why}; nothing was sent: ${check}; ${again}`,
    again,
  );
}
