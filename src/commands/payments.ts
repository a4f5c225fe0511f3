import { captureSafely } from '../api/capture';
import { OutcomeUnknownError, UsageError } from '../api/errors';
import { formatMoney } from '../output/money';
import type { Context } from './context';
import { amountFlag, currencyFlag, idArg, notesFlag } from './flags';
import { exportProgress, listing, listResult, pageQuery } from './listing';
import { one } from './result';
import type { CommandResult, Input } from './result';

const PAYMENT_STATUSES = ['created', 'authorized', 'captured', 'refunded', 'failed'];

export async function list({ opts }: Input, ctx: Context): Promise<CommandResult> {
  const status = opts.status === undefined ? undefined : String(opts.status);
  if (status !== undefined && !PAYMENT_STATUSES.includes(status)) {
    throw new UsageError(`--status must be one of ${PAYMENT_STATUSES.join(', ')}: got "${status}"`);
  }
  const page = await pageQuery(ctx, opts, 'payment');
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
const isBulk = ({ args, opts }: Input) => args.length > 1 || opts.input !== undefined;

export async function capture({ args, opts }: Input, ctx: Context): Promise<CommandResult> {
  if (isBulk({ args, opts })) return (await import('./bulk')).bulk('capture', { args, opts }, ctx);
  if (args.length === 0) {
    if (guidable(ctx)) return (await import('./guided')).guidedCapture(ctx);
    throw new UsageError('missing payment id: payctl payments capture PAY_ID (or --input FILE for many; on a terminal, no id starts a guided capture)');
  }
  const id = idArg(args[0], 'payment');
  const currency = currencyFlag(opts.currency);
  const amount = amountFlag(opts.amount, currency);
  if ((amount === undefined) !== (currency === undefined)) {
    throw new UsageError('--amount and --currency go together (without both, the payment\'s full amount is captured)');
  }
  const api = await ctx.api();
  if (ctx.settings.dryRun) {
    if (amount !== undefined && currency !== undefined) {
      return { type: 'dry-run', requests: [api.prepare('capturePayment', { params: { id }, body: { amount, currency } })] };
    }
    const path = `/payments/${encodeURIComponent(id)}/capture`;
    return {
      type: 'dry-run',
      requests: [{ endpoint: 'capturePayment', method: 'POST', path, url: api.http.url({ path }), body: { amount: `<amount of ${id}>`, currency: `<currency of ${id}>` } }],
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
  if (captureAmount === undefined || captureCurrency === undefined) throw new UsageError('could not read the payment amount');
  const outcome = await captureSafely(api, id, captureAmount, captureCurrency);
  if (outcome.reconciled) ctx.notice(`the capture's first answer was lost; read back from the service: ${id} is ${String(outcome.payment.status)}`);
  return one('payment', outcome.payment);
}

export async function refund({ args, opts }: Input, ctx: Context): Promise<CommandResult> {
  if (isBulk({ args, opts })) return (await import('./bulk')).bulk('refund', { args, opts }, ctx);
  if (args.length === 0) {
    if (guidable(ctx)) return (await import('./guided')).guidedRefund(ctx);
    throw new UsageError('missing payment id: payctl payments refund PAY_ID (or --input FILE for many; on a terminal, no id starts a guided refund)');
  }
  const id = idArg(args[0], 'payment');
  const amount = amountFlag(opts.amount);
  const body = {
    amount,
    receipt: opts.receipt === undefined ? undefined : String(opts.receipt),
    notes: notesFlag(opts.note),
  };
  const api = await ctx.api();
  const req = api.prepare('refundPayment', { params: { id }, body });
  if (ctx.settings.dryRun) return { type: 'dry-run', requests: [req] };

  let before: Record<string, unknown> | undefined;
  // A person at a terminal is asked, and should see what the payment holds before money moves.
  await ctx.confirm(async () => {
    const payment = await api.call<Record<string, unknown>>('getPayment', { params: { id } });
    before = payment;
    const currency = String(payment.currency);
    const refunded = Number(payment.amount_refunded ?? 0);
    const remaining = Number(payment.amount) - refunded;
    const what = amount === undefined ? `the remaining ${formatMoney(remaining, currency)}` : formatMoney(amount, currency);
    return `Refund ${what} of payment ${id} (${String(payment.status)}, ${formatMoney(payment.amount, currency)}, refunded so far ${formatMoney(refunded, currency)})?`;
  });
  try {
    return one('refund', await api.execute(req));
  } catch (err) {
    if (err instanceof OutcomeUnknownError) {
      const was = before ? ` (it was ${String(before.amount_refunded ?? 0)} before)` : '';
      throw new OutcomeUnknownError(
        `refund of ${id}: ${err.message}`,
        `do not resend blindly: run \`payctl payments get ${id}\` and compare amount_refunded${was}`,
      );
    }
    throw err;
  }
}
