import { UsageError } from '../contract/errors';
import { amountFlag, currencyFlag, notesFlag } from './flags';
import { exportProgress, listing, listResult, pageQuery } from './listing';
import { one } from './result';
import { sendOnce } from './check';
import type { Context } from './context';
import type { CommandResult, Input } from './result';

export async function list({ opts }: Input, ctx: Context): Promise<CommandResult> {
  const page = await pageQuery(ctx, opts, 'order');
  const extra = {
    authorized: opts.authorized ? true : undefined,
    receipt: opts.receipt === undefined ? undefined : String(opts.receipt),
  };
  const progress = exportProgress(ctx, page);
  const result = await listing(ctx, 'listOrders', page, extra, undefined, progress);
  return 'dryRun' in result ? result.dryRun : listResult(ctx, 'order', 'orders', page, result, progress);
}

export async function create({ opts }: Input, ctx: Context): Promise<CommandResult> {
  if (opts.amount === undefined)
    throw new UsageError('missing --amount (integer, smallest currency unit, e.g. 50000 for ₹500.00)');
  if (opts.currency === undefined) throw new UsageError('missing --currency (e.g. INR)');
  const currency = currencyFlag(opts.currency);
  const body = {
    amount: amountFlag(opts.amount, currency),
    currency,
    receipt: opts.receipt === undefined ? undefined : String(opts.receipt),
    payment_capture: !opts.manualCapture,
    notes: notesFlag(opts.note),
  };
  const api = await ctx.api();
  const req = api.prepare('createOrder', { body });
  if (ctx.settings.dryRun) return { type: 'dry-run', requests: [req] };
  return one('order', await sendOnce(api, req));
}
