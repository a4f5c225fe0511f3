import type { PaymentStatus } from '../../contract/vocabulary';
import { sendOrShow } from '../check';
import type { Context } from '../context';
import { idArg } from '../flags';
import { exportProgress, listing, listResult, pageQuery } from '../listing';
import type { PageOptions } from '../listing';
import type { CommandResult } from '../result';

export interface ListPaymentsOptions extends PageOptions {
  status?: PaymentStatus;
}

export async function listPayments(opts: ListPaymentsOptions, ctx: Context): Promise<CommandResult> {
  const { status } = opts;
  const page = await pageQuery(ctx, opts, 'payment');
  const progress = exportProgress(ctx, page);
  // The service has no status filter: payctl walks pages until it has the rows asked for.
  const keep = status === undefined ? undefined : (p: unknown) => (p as { status?: string }).status === status;
  const result = await listing(ctx, 'listPayments', page, {}, undefined, progress, keep);
  if ('dryRun' in result) return result.dryRun;
  return listResult(ctx, 'payment', status ? `${status} payments` : 'payments', page, result, progress);
}

export interface GetPaymentOptions {
  id: string;
}

export async function getPayment(opts: GetPaymentOptions, ctx: Context): Promise<CommandResult> {
  const id = idArg(opts.id, 'payment');
  const api = await ctx.api();
  return sendOrShow(ctx, api, api.prepare('getPayment', { params: { id } }), 'payment');
}
