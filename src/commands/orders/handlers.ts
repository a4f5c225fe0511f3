import { amountFlag, currencyFlag, notesFlag } from '../flags';
import { exportProgress, listing, listResult, newSummary, pageQuery } from '../listing';
import type { PageOptions } from '../listing';
import { dryRun, readById, sendOrShow } from '../check';
import { idArg } from '../flags';
import type { EditNotesOptions } from '../notes-edit';
import { plural } from '../../output/plural';
import type { Context } from '../context';
import type { CommandResult } from '../result';

export interface ListOrdersOptions extends PageOptions {
  authorized: boolean;
  receipt?: string;
}

export async function listOrders(opts: ListOrdersOptions, ctx: Context): Promise<CommandResult> {
  const page = await pageQuery(ctx, opts, 'order');
  const extra = { authorized: opts.authorized || undefined, receipt: opts.receipt };
  const progress = exportProgress(ctx, page);
  const result = await listing(ctx, 'listOrders', page, extra, undefined, progress);
  return 'dryRun' in result ? result.dryRun : listResult(ctx, 'order', 'orders', page, result, progress);
}

export interface CreateOrderOptions {
  amount: string;
  currency: string;
  receipt?: string;
  manualCapture: boolean;
  notes: string[];
}

export async function createOrder(opts: CreateOrderOptions, ctx: Context): Promise<CommandResult> {
  const currency = currencyFlag(opts.currency);
  const body = {
    amount: amountFlag(opts.amount, currency),
    currency,
    receipt: opts.receipt,
    payment_capture: !opts.manualCapture,
    notes: notesFlag(opts.notes),
  };
  const api = await ctx.api();
  return sendOrShow(ctx, api, api.prepare('createOrder', { body }), 'order');
}

export interface OrderOptions {
  id: string;
}

export const getOrder = (opts: OrderOptions, ctx: Context) => readById(ctx, 'getOrder', 'order', opts.id);

/** Every payment attempt on the order (the service answers them all at once), most recent first. */
export async function orderPayments(opts: OrderOptions, ctx: Context): Promise<CommandResult> {
  const id = idArg(opts.id, 'order');
  const page = await pageQuery(ctx, { all: true }, 'payment');
  const api = await ctx.api();
  const req = api.prepare('listOrderPayments', { params: { id } });
  if (ctx.settings.dryRun) return dryRun(req);
  const { items } = await api.execute<{ items: unknown[] }>(req);
  const summary = newSummary(ctx, 'payment', page);
  for (const row of items) summary.note(row);
  return {
    type: 'many',
    kind: 'payment',
    items,
    out: page.out?.path,
    outFormat: page.out?.format,
    summary,
    after: () => `${plural(items.length, 'payment attempt')} on ${id}`,
  };
}

export const editOrder = async (opts: EditNotesOptions, ctx: Context) =>
  (await import('../notes-edit')).editNotes(opts, ctx, 'order');
