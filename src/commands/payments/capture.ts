import { captureSafely } from '../../client/capture';
import type { PaymentRecord } from '../../contract/resources';
import { formatMoney } from '../../output/money';
import { stripControl } from '../../output/sanitize';
import { dryRun } from '../check';
import type { Context } from '../context';
import { idArg } from '../flags';
import { one } from '../result';
import type { CommandResult } from '../result';
import type { BulkFlags } from './bulk-options';
import { captureMoney, captureRequest } from './capture-request';
import { guidable, modeOf } from './mode';

export interface CapturePaymentsOptions extends BulkFlags {
  ids: string[];
  amount?: string;
  currency?: string;
}

/** One id: capture it; many, or --input/--recheck: a bulk run; none on a terminal: guided. */
export async function capturePayments(opts: CapturePaymentsOptions, ctx: Context): Promise<CommandResult> {
  const mode = modeOf(opts.ids, opts, guidable(ctx), 'capture');
  if (mode === 'bulk') {
    const run = { ...opts, op: 'capture' as const, notes: [], retryUnknown: false };
    return (await import('./bulk')).runBulk(run, ctx);
  }
  if (mode === 'guided') return (await import('./guided')).guidedCapture(ctx);
  return captureOne(opts.ids[0]!, opts, ctx);
}

async function captureOne(rawId: string, opts: CapturePaymentsOptions, ctx: Context): Promise<CommandResult> {
  const id = idArg(rawId, 'payment');
  const money = captureMoney(opts, "the payment's full amount is captured");
  const api = await ctx.api();
  if (ctx.settings.dryRun) {
    const request = captureRequest(api, id, money);
    if (money.amount !== undefined) return dryRun(request);
    const note = 'without --amount, the amount and currency are read from the payment when run for real';
    return { type: 'dry-run', requests: [request], note };
  }
  let figures = money.amount === undefined ? undefined : money;
  const read = async () => {
    if (figures) return figures;
    const payment = await api.call<PaymentRecord>('getPayment', { params: { id } });
    return (figures = { amount: Number(payment.amount), currency: payment.currency });
  };
  await ctx.confirm(async () => {
    const { amount, currency } = await read();
    return `Capture ${formatMoney(amount, currency)} of payment ${id}?`;
  });
  const { amount, currency } = await read();
  const outcome = await captureSafely(api, id, amount, currency);
  if (outcome.reconciled)
    ctx.notice(
      "payctl: the capture's first answer was lost; confirmed by reading the payment back: " +
        `${id} is ${stripControl(String(outcome.payment.status))}`,
    );
  return one('payment', outcome.payment);
}
