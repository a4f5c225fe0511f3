import { readById } from '../check';
import type { Context } from '../context';
import type { FetchManyOptions } from '../fetch-many';
import { idArg } from '../flags';
import type { EditNotesOptions } from '../notes-edit';
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

// Each loads its own module when it runs: reading many ids, or editing notes, is all its command does.
export async function getRefund(opts: FetchManyOptions, ctx: Context): Promise<CommandResult> {
  if (opts.input === undefined && opts.ids.length === 1) return readById(ctx, 'getRefund', 'refund', opts.ids[0]);
  return (await import('../fetch-many')).fetchMany(opts, ctx, 'refund');
}

export const editRefund = async (opts: EditNotesOptions, ctx: Context) =>
  (await import('../notes-edit')).editNotes(opts, ctx, 'refund');
