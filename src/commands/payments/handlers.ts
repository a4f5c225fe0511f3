import { readById } from '../check';
import type { Context } from '../context';
import type { FetchManyOptions } from '../fetch-many';
import type { EditNotesOptions } from '../notes-edit';
import { paymentFilter } from './filters';
import type { PaymentFilters } from './filters';
import { exportProgress, listing, listResult, pageQuery } from '../listing';
import type { PageOptions } from '../listing';
import type { CommandResult } from '../result';

export interface ListPaymentsOptions extends PageOptions, PaymentFilters {}

export async function listPayments(opts: ListPaymentsOptions, ctx: Context): Promise<CommandResult> {
  const { keep, noun } = paymentFilter(opts);
  const page = await pageQuery(ctx, opts, 'payment');
  // A filter walks pages until it has its rows: on a terminal that gets the progress line of a whole walk.
  const progress = exportProgress(ctx, { all: page.all || keep !== undefined });
  const result = await listing(ctx, 'listPayments', page, {}, undefined, progress, keep);
  if ('dryRun' in result) return result.dryRun;
  return listResult(ctx, 'payment', noun, page, result, progress);
}

// Each loads its own module when it runs: reading many ids, or editing notes, is all its command does.
export async function getPayment(opts: FetchManyOptions, ctx: Context): Promise<CommandResult> {
  if (opts.input === undefined && opts.ids.length === 1) return readById(ctx, 'getPayment', 'payment', opts.ids[0]);
  return (await import('../fetch-many')).fetchMany(opts, ctx, 'payment');
}

export const editPayment = async (opts: EditNotesOptions, ctx: Context) =>
  (await import('../notes-edit')).editNotes(opts, ctx, 'payment');
