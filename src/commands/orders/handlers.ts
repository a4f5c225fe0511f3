import { amountFlag, currencyFlag, notesFlag } from '../flags';
import { exportProgress, listing, listResult, pageQuery } from '../listing';
import type { PageOptions } from '../listing';
import { sendOrShow } from '../check';
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
