import { formatMoney } from '../../output/money';
import { dryRun } from '../check';
import type { Context } from '../context';
import { idArg } from '../flags';
import type { CommandResult } from '../result';
import type { BulkFlags } from './bulk-options';
import { captureMoney, captureOnce, captureRequest, planCapture, readPayment } from './capture-request';
import { runInMode } from './mode';

export interface CapturePaymentsOptions extends BulkFlags {
  ids: string[];
  amount?: string;
  currency?: string;
}

/**
 * One id: capture it (with --dry-run --read, its plan read now: planCapture); many, or --input/--recheck: a
 * bulk run; none on a terminal: guided.
 */
export async function capturePayments(opts: CapturePaymentsOptions, ctx: Context): Promise<CommandResult> {
  const run = { ...opts, op: 'capture' as const, notes: [], retryUnknown: false };
  return runInMode(run, ctx, (id) => captureOne(id, opts, ctx));
}

async function captureOne(rawId: string, opts: CapturePaymentsOptions, ctx: Context): Promise<CommandResult> {
  const id = idArg(rawId, 'payment');
  const money = captureMoney(opts, "the payment's full amount is captured");
  const api = await ctx.api();
  if (ctx.settings.dryRun) {
    if (opts.read) return planCapture(api, id, money);
    const request = captureRequest(api, id, money);
    if (money.amount !== undefined) return dryRun(request);
    const note =
      'without --amount, the amount and currency are read from the payment when run for real (--read reads them now)';
    return { type: 'dry-run', requests: [request], note };
  }
  let figures = money.amount === undefined ? undefined : money;
  const read = async () => {
    if (figures) return figures;
    const payment = await readPayment(api, id);
    return (figures = { amount: Number(payment.amount), currency: payment.currency });
  };
  await ctx.confirm(async () => {
    const { amount, currency } = await read();
    return `Capture ${formatMoney(amount, currency)} of payment ${id}?`;
  });
  const { amount, currency } = await read();
  return captureOnce(ctx, api, id, amount, currency);
}
