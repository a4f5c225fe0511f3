import { refundBaseline } from '../../client/refund';
import { formatMoney } from '../../output/money';
import { stripControl } from '../../output/sanitize';
import { dryRun } from '../check';
import type { Context } from '../context';
import { amountFlag, idArg, notesFlag } from '../flags';
import type { CommandResult } from '../result';
import type { BulkFlags } from './bulk-options';
import { runInMode } from './mode';
import { planRefund } from './refund-plan';
import { refundAmount, refundIdentity, refundOnce } from './refund-single';
import type { RefundRequest } from './refund-single';

export interface RefundPaymentsOptions extends BulkFlags {
  ids: string[];
  amount?: string;
  receipt?: string;
  notes: string[];
  /** Bulk: resend, with the same key, refunds whose outcome the journal holds as unknown. */
  retryUnknown: boolean;
  /** One payment: the refund's identity, to rerun one whose outcome was unknown. */
  idempotencyKey?: string;
}

/**
 * One id: refund it (with --dry-run --read, its plan read now: planRefund); many, or --input/--recheck: a
 * bulk run; none on a terminal: guided.
 */
export async function refundPayments(opts: RefundPaymentsOptions, ctx: Context): Promise<CommandResult> {
  const { idempotencyKey, ...run } = opts;
  return runInMode({ ...run, op: 'refund' }, ctx, (id) => refundOne(id, opts, ctx), idempotencyKey !== undefined);
}

async function refundOne(rawId: string, opts: RefundPaymentsOptions, ctx: Context): Promise<CommandResult> {
  const id = idArg(rawId, 'payment');
  const notes = notesFlag(opts.notes);
  const amount = amountFlag(opts.amount);
  if (ctx.settings.dryRun && opts.read)
    return planRefund(ctx, id, { amount, receipt: opts.receipt, notes, key: opts.idempotencyKey });
  const request: RefundRequest = {
    amount,
    receipt: opts.receipt,
    notes,
    ...refundIdentity(opts.idempotencyKey, notes),
  };
  const api = await ctx.api();
  const body = { amount: request.amount, receipt: request.receipt, notes: request.notes };
  const req = api.prepare('refundPayment', { params: { id }, body });
  if (ctx.settings.dryRun) return dryRun(req);

  // A person at a terminal sees what the payment holds, and an amount above what remains is refused
  // before the question (exit 2, nothing sent).
  await ctx.confirm(async () => {
    const b = await refundBaseline(api, id);
    const amount = formatMoney(refundAmount(b, request.amount), b.currency);
    const what = request.amount === undefined ? `the remaining ${amount}` : amount;
    const holds = `${formatMoney(b.amount, b.currency)}, refunded so far ${formatMoney(b.amountRefunded, b.currency)}`;
    return `Refund ${what} of payment ${id} (${stripControl(b.status)}, ${holds})?`;
  });
  // Read right before sending (someone may have waited at the question): this figure decides the
  // amount and is what an ambiguous answer is judged by.
  const baseline = await refundBaseline(api, id);
  return refundOnce(ctx, api, baseline, request);
}
