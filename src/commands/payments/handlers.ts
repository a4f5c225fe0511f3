import { pageOptions } from '../declare';
import { captureSafely } from '../../client/capture';
import { UsageError } from '../../contract/errors';
import { refundBaseline } from '../../client/refund';
import { formatMoney } from '../../output/money';
import { stripControl } from '../../output/sanitize';
import type { Context } from '../context';
import { amountFlag, currencyFlag, idArg, notesFlag } from '../flags';
import { exportProgress, listing, listResult, pageQuery } from '../listing';
import { one } from '../result';
import { refundAmount, refundOnce } from './refund-single';
import type { RefundRequest } from './refund-single';
import type { CommandResult, Input } from '../result';

const PAYMENT_STATUSES = ['created', 'authorized', 'captured', 'refunded', 'failed'];

export async function list({ opts }: Input, ctx: Context): Promise<CommandResult> {
  const status = opts.status === undefined ? undefined : String(opts.status);
  if (status !== undefined && !PAYMENT_STATUSES.includes(status)) {
    throw new UsageError(`--status must be one of ${PAYMENT_STATUSES.join(', ')}: got "${status}"`);
  }
  const page = await pageQuery(ctx, pageOptions(opts), 'payment');
  const progress = exportProgress(ctx, page);
  // The service has no status filter: payctl walks pages until it has the rows asked for.
  const keep = status === undefined ? undefined : (p: unknown) => (p as { status?: string }).status === status;
  const result = await listing(ctx, 'listPayments', page, {}, undefined, progress, keep);
  if ('dryRun' in result) return result.dryRun;
  return listResult(ctx, 'payment', status ? `${status} payments` : 'payments', page, result, progress);
}

export async function get({ args }: Input, ctx: Context): Promise<CommandResult> {
  const id = idArg(args[0], 'payment');
  const api = await ctx.api();
  const req = api.prepare('getPayment', { params: { id } });
  if (ctx.settings.dryRun) return { type: 'dry-run', requests: [req] };
  return one('payment', await api.execute(req));
}

/** No id on a terminal (and no --yes/--dry-run, which mean a script): walk a person through it. */
const guidable = (ctx: Context) => ctx.io.stdinIsTTY && ctx.io.stderrIsTTY && !ctx.settings.yes && !ctx.settings.dryRun;

/** Many ids, or --input: the bulk runner (journal, concurrency, resume). */
const isBulk = ({ args, opts }: Input) => args.length > 1 || opts.input !== undefined || opts.recheck !== undefined;

export async function capture({ args, opts }: Input, ctx: Context): Promise<CommandResult> {
  if (isBulk({ args, opts })) return (await import('./bulk')).bulk('capture', { args, opts }, ctx);
  if (args.length === 0) {
    if (guidable(ctx)) return (await import('./guided')).guidedCapture(ctx);
    throw new UsageError(
      'missing payment id: payctl payments capture PAY_ID (or --input FILE for many; on a terminal, no id starts a guided capture)',
    );
  }
  const id = idArg(args[0], 'payment');
  const currency = currencyFlag(opts.currency);
  const amount = amountFlag(opts.amount, currency);
  if ((amount === undefined) !== (currency === undefined)) {
    throw new UsageError("--amount and --currency go together (without both, the payment's full amount is captured)");
  }
  const api = await ctx.api();
  if (ctx.settings.dryRun) {
    if (amount !== undefined && currency !== undefined) {
      return {
        type: 'dry-run',
        requests: [api.prepare('capturePayment', { params: { id }, body: { amount, currency } })],
      };
    }
    const path = `/payments/${encodeURIComponent(id)}/capture`;
    return {
      type: 'dry-run',
      requests: [
        {
          endpoint: 'capturePayment',
          method: 'POST',
          path,
          url: api.http.url({ path }),
          body: { amount: `<amount of ${id}>`, currency: `<currency of ${id}>` },
        },
      ],
      note: 'without --amount, the amount and currency are read from the payment when run for real',
    };
  }
  let captureAmount = amount;
  let captureCurrency = currency;
  const readPayment = async () => {
    if (captureAmount === undefined || captureCurrency === undefined) {
      const payment = await api.call<Record<string, unknown>>('getPayment', { params: { id } });
      captureAmount = Number(payment.amount);
      captureCurrency = String(payment.currency);
    }
  };
  await ctx.confirm(async () => {
    await readPayment();
    return `Capture ${formatMoney(captureAmount, captureCurrency)} of payment ${id}?`;
  });
  await readPayment();
  if (captureAmount === undefined || captureCurrency === undefined)
    throw new UsageError('could not read the payment amount');
  const outcome = await captureSafely(api, id, captureAmount, captureCurrency);
  if (outcome.reconciled)
    ctx.notice(
      `payctl: the capture's first answer was lost; confirmed by reading the payment back: ${id} is ${stripControl(String(outcome.payment.status))}`,
    );
  return one('payment', outcome.payment);
}

export async function refund({ args, opts }: Input, ctx: Context): Promise<CommandResult> {
  if (isBulk({ args, opts })) return (await import('./bulk')).bulk('refund', { args, opts }, ctx);
  if (args.length === 0) {
    if (guidable(ctx)) return (await import('./guided')).guidedRefund(ctx);
    throw new UsageError(
      'missing payment id: payctl payments refund PAY_ID (or --input FILE for many; on a terminal, no id starts a guided refund)',
    );
  }
  const id = idArg(args[0], 'payment');
  const request: RefundRequest = {
    amount: amountFlag(opts.amount),
    receipt: opts.receipt === undefined ? undefined : String(opts.receipt),
    notes: notesFlag(opts.note),
  };
  const api = await ctx.api();
  const req = api.prepare('refundPayment', {
    params: { id },
    body: { amount: request.amount, receipt: request.receipt, notes: request.notes },
  });
  if (ctx.settings.dryRun) return { type: 'dry-run', requests: [req] };

  // A person at a terminal sees what the payment holds, and an amount above what remains is refused
  // before the question (exit 2, nothing sent).
  await ctx.confirm(async () => {
    const b = await refundBaseline(api, id);
    const amount = refundAmount(b, request.amount);
    const what =
      request.amount === undefined
        ? `the remaining ${formatMoney(amount, b.currency)}`
        : formatMoney(amount, b.currency);
    return `Refund ${what} of payment ${id} (${stripControl(b.status)}, ${formatMoney(b.amount, b.currency)}, refunded so far ${formatMoney(b.amountRefunded, b.currency)})?`;
  });
  // Read right before sending (someone may have waited at the question): this figure decides the
  // amount and is what an ambiguous answer is judged by.
  const baseline = await refundBaseline(api, id);
  return refundOnce(ctx, api, baseline, request);
}
