import { sendOrShow } from '../check';
import type { Context } from '../context';
import { idArg } from '../flags';
import { exportProgress, listing, listResult, pageQuery } from '../listing';
import type { PageOptions } from '../listing';
import type { CommandResult } from '../result';

export { reconcile } from './recon';

export async function listSettlements(opts: PageOptions, ctx: Context): Promise<CommandResult> {
  const page = await pageQuery(ctx, opts, 'settlement');
  const progress = exportProgress(ctx, page);
  const result = await listing(ctx, 'listSettlements', page, {}, undefined, progress);
  return 'dryRun' in result ? result.dryRun : listResult(ctx, 'settlement', 'settlements', page, result, progress);
}

export interface GetSettlementOptions {
  id: string;
}

export async function getSettlement(opts: GetSettlementOptions, ctx: Context): Promise<CommandResult> {
  const id = idArg(opts.id, 'settlement');
  const api = await ctx.api();
  return sendOrShow(ctx, api, api.prepare('getSettlement', { params: { id } }), 'settlement');
}
