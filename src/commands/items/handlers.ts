import { sendOrShow } from '../check';
import type { Context } from '../context';
import type { FetchManyOptions } from '../fetch-many';
import { idArg } from '../flags';
import { exportProgress, listing, listResult, pageQuery } from '../listing';
import type { PageOptions } from '../listing';
import type { CommandResult } from '../result';

export async function listItems(opts: PageOptions, ctx: Context): Promise<CommandResult> {
  const page = await pageQuery(ctx, opts, 'item');
  const progress = exportProgress(ctx, page);
  const result = await listing(ctx, 'listItems', page, {}, undefined, progress);
  return 'dryRun' in result ? result.dryRun : listResult(ctx, 'item', 'items', page, result, progress);
}

/** One id is that record; many (or a file of them) are rows read over the one pool, as `payments get`. */
export async function getItem(opts: FetchManyOptions, ctx: Context): Promise<CommandResult> {
  if (opts.input === undefined && opts.ids.length === 1) {
    const api = await ctx.api();
    return sendOrShow(ctx, api, api.prepare('getItem', { params: { id: idArg(opts.ids[0], 'item') } }), 'item');
  }
  return (await import('../fetch-many')).fetchMany(opts, ctx, 'item');
}
