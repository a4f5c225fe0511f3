import type { Context } from '../context';
import { fetchMany } from '../fetch-many';
import type { FetchManyOptions } from '../fetch-many';
import { editNotes } from '../notes-edit';
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

export const getPayment = (opts: FetchManyOptions, ctx: Context) => fetchMany(opts, ctx, 'payment');

export const editPayment = (opts: EditNotesOptions, ctx: Context) => editNotes(opts, ctx, 'payment');
