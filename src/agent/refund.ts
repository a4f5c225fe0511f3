import { randomBytes } from 'node:crypto';
import type { ApiClient } from '../client/client';
import type { RefundBaseline } from '../client/refund';
import { amountFlag, idArg, notesFlag } from '../commands/flags';
import { refundAmount, refundIdentity, refundOnce } from '../commands/payments/refund-single';
import { isJsonObject } from '../contract/values/json';
import { formatMoney } from '../output/money';
import type { Plan } from './rails';
import type { ToolEnv } from './tools';

type Args = Record<string, unknown>;

const notesOf = (raw: unknown) =>
  notesFlag(isJsonObject(raw) ? Object.entries(raw).map(([k, v]) => `${k}=${String(v)}`) : undefined);

/**
 * A refund's plan: the payment as read now, the amount fixed (all that remains when none is given),
 * and the idempotency key the refund will carry, fixed here so that the plan names the one refund it
 * can ever make.
 */
export async function planRefund(
  a: Args,
  env: ToolEnv,
  baselineOf: (api: ApiClient, id: string) => Promise<RefundBaseline>,
): Promise<Plan> {
  const id = idArg(a.payment_id, 'payment');
  const api = await env.api();
  const baseline = await baselineOf(api, id);
  const asked = amountFlag(a.amount === undefined ? undefined : String(a.amount), baseline.currency, 'amount');
  const amount = refundAmount(baseline, asked);
  const notes = notesOf(a.notes);
  const key = refundIdentity(`payctl-mcp-${randomBytes(12).toString('hex')}`, notes).key;
  return {
    tool: 'payments_refund',
    args: a,
    requests: [
      { method: 'POST', path: `/payments/${id}/refund`, body: { amount, receipt: a.receipt, notes: { ...notes } } },
    ],
    amount,
    currency: baseline.currency,
    amountText: formatMoney(amount, baseline.currency),
    state: {
      id,
      status: baseline.status,
      amount: baseline.amount,
      amount_refunded: baseline.amountRefunded,
      currency: baseline.currency,
    },
    fixed: { idempotency_key: key },
  };
}

/** Sends the planned refund through the CLI's single-refund path: the same checks, key and reconciliation. */
export async function executeRefund(plan: Plan, env: ToolEnv): Promise<unknown> {
  const { refundBaseline } = await import('../client/refund');
  const id = idArg(plan.args.payment_id, 'payment');
  const api = await env.api();
  const baseline = await refundBaseline(api, id);
  const body = plan.requests[0]!.body as { amount: number; receipt?: string; notes?: Record<string, string> };
  const notes = body.notes && Object.keys(body.notes).length ? body.notes : undefined;
  const result = await refundOnce(env.sending, api, baseline, {
    amount: body.amount,
    receipt: body.receipt,
    notes,
    ...refundIdentity(plan.fixed!.idempotency_key, notes),
  });
  return result.type === 'one' ? result.data : result;
}
