import { sendOrShow } from '../check';
import type { Context } from '../context';
import { idArg } from '../flags';
import { exportProgress, listing, listResult, pageQuery } from '../listing';
import type { PageOptions } from '../listing';
import type { CommandResult } from '../result';

export interface ListRefundsOptions extends PageOptions {
  /** Only this payment's refunds (GET /payments/:id/refunds) instead of all (GET /refunds). */
  payment?: string;
}

export async function listRefunds(opts: ListRefundsOptions, ctx: Context): Promise<CommandResult> {
  const payment = opts.payment === undefined ? undefined : idArg(opts.payment, 'payment');
  const page = await pageQuery(ctx, opts, 'refund');
  const progress = exportProgress(ctx, page);
  const result = payment
    ? await listing(ctx, 'listPaymentRefunds', page, {}, { id: payment }, progress)
    : await listing(ctx, 'listRefunds', page, {}, undefined, progress);
  if ('dryRun' in result) return result.dryRun;
  return listResult(ctx, 'refund', payment ? `refunds of ${payment}` : 'refunds', page, result, progress);
}

export interface GetRefundOptions {
  id: string;
}

export async function getRefund(opts: GetRefundOptions, ctx: Context): Promise<CommandResult> {
  const id = idArg(opts.id, 'refund');
  const api = await ctx.api();
  return sendOrShow(ctx, api, api.prepare('getRefund', { params: { id } }), 'refund');
}
