import type { ApiClient } from '../../client/client';
import { ApiError, InterruptedError, PayctlError } from '../../contract/errors';
import { refundBaseline } from '../../client/refund';
import { formatMoney, formatMoneyShort, minorUnitName } from '../../output/money';
import { stripControl } from '../../output/sanitize';
import { parseAmount } from '../../contract/values/amount';
import { parseId } from '../../contract/values/id';
import { parseNotes } from '../../contract/values/notes';
import { LIMITS } from '../../contract/limits';
import type { PaymentRecord } from '../../contract/resources';
import { refundable } from '../../contract/rules';
import { formatTime } from '../../output/time';
import type { Context } from '../context';
import { need } from '../flags';
import { fitQuestion, mustConfirm, promptSession } from '../prompt';
import { targetLabel } from '../target';
import type { PromptSession as Session } from '../prompt';
import { captureOnce } from './capture-request';
import { refundIdentity, refundOnce } from './refund-single';
import type { CommandResult } from '../result';

type Payment = PaymentRecord;

// The guided flows for support staff: `payments refund` / `payments capture` with no id on a terminal.
// Every answer is checked as it is given; nothing is sent before the last question is confirmed.

/** Asks for a payment id until it names a payment the service has, in a state `usable` accepts. */
async function askPayment(
  s: Session,
  api: ApiClient,
  verb: string,
  usable: (p: Payment) => string | true,
): Promise<Payment> {
  let payment: Payment | undefined;
  await s.ask((p) =>
    p.input(
      {
        message: `Payment id to ${verb}:`,
        validate: async (value) => {
          const id = parseId(value, 'payment');
          if (!id.ok) return id.error;
          try {
            payment = await api.call<Payment>('getPayment', { params: { id: id.value } });
          } catch (err) {
            // The service says 400 "does not exist" for an unknown id; any failure is shown and asked again.
            if (err instanceof ApiError) return `no payment ${id.value} on this account (${stripControl(err.message)})`;
            if (err instanceof PayctlError) return `could not read ${id.value}: ${stripControl(err.message)}`;
            throw err;
          }
          return usable(payment);
        },
      },
      s.context,
    ),
  );
  return payment!;
}

const text = (v: unknown) => (v === null || v === undefined || v === '' ? '-' : stripControl(String(v)));

function summary(s: Session, payment: Payment, tz: string) {
  const { currency } = payment;
  const rows: Array<[string, string]> = [
    ['payment', text(payment.id)],
    ['status', text(payment.status)],
    ['amount', formatMoney(payment.amount, currency)],
    ['already refunded', formatMoney(Number(payment.amount_refunded ?? 0), currency)],
    ['method', text(payment.method)],
    ['email', text(payment.email)],
    ['contact', text(payment.contact)],
    ['created', formatTime(payment.created_at, tz) || '-'],
  ];
  s.say();
  for (const [k, v] of rows) s.say(`  ${k.padEnd(17)} ${v}`);
  s.say();
}

/** An amount of this payment's currency, at least 1 and at most `max`, shown in human form while typed. */
function amountQuestion(message: string, currency: string, max: number) {
  return {
    message,
    transformer: (value: string, { isFinal }: { isFinal: boolean }) => {
      const parsed = parseAmount(value, currency);
      return parsed.ok && !isFinal ? `${value}  = ${formatMoney(parsed.value, currency)}` : value;
    },
    validate: (value: string) => {
      const parsed = parseAmount(value, currency);
      if (!parsed.ok) return parsed.error;
      if (parsed.value > max)
        return `at most ${formatMoney(max, currency)} remains: ${formatMoney(parsed.value, currency)} is too much`;
      return true;
    },
  };
}

async function askNotes(s: Session): Promise<Record<string, string> | undefined> {
  const pairs: string[] = [];
  for (;;) {
    const pair = await s.ask((p) =>
      p.input(
        {
          message: pairs.length
            ? 'Another note (key=value, empty to finish):'
            : 'Note (key=value, e.g. reason=damaged; empty for none):',
          validate: (value) => {
            if (!value.trim()) return true;
            const parsed = parseNotes([...pairs, value]);
            return parsed.ok ? true : parsed.error;
          },
        },
        s.context,
      ),
    );
    if (!pair.trim()) break;
    pairs.push(pair);
    if (pairs.length >= LIMITS.notesPairs) break;
  }
  if (!pairs.length) return undefined;
  const parsed = parseNotes(pairs);
  return parsed.ok ? parsed.value : undefined;
}

async function finalConfirm(s: Session, message: string, ctx: Context) {
  const label = targetLabel(await ctx.credentials(), ctx.settings.table.stderrColor);
  const columns = (ctx.io.stderr as { columns?: number }).columns;
  const question = fitQuestion(`${label} ${message}`, columns);
  const ok = await s.ask((p) => p.confirm({ message: question, default: false }, s.context));
  mustConfirm(ok);
}

export async function guidedRefund(ctx: Context): Promise<CommandResult> {
  const s = await promptSession(ctx);
  const api = await ctx.api();
  const payment = await askPayment(s, api, 'refund', (p) => {
    if (p.status !== 'captured' && p.status !== 'refunded')
      return `${p.id} is ${p.status}: only a captured payment can be refunded`;
    return refundable(p) > 0 ? true : `${p.id} is already refunded in full`;
  });
  const { id, currency } = payment;
  const remaining = refundable(payment);
  summary(s, payment, ctx.settings.tz);

  const kind = await s.ask((p) =>
    p.select(
      {
        message: 'Refund how much?',
        choices: [
          { name: `Everything that remains: ${formatMoney(remaining, currency)}`, value: 'full' as const },
          { name: 'Part of it', value: 'partial' as const },
        ],
      },
      s.context,
    ),
  );
  const amount =
    kind === 'full'
      ? remaining
      : need(
          parseAmount(
            await s.ask((p) =>
              p.input(
                amountQuestion(
                  `Amount to refund in ${minorUnitName(currency)} ` +
                    `(at most ${remaining} = ${formatMoneyShort(remaining, currency)}):`,
                  currency,
                  remaining,
                ),
                s.context,
              ),
            ),
            currency,
          ),
        );
  const receipt = (
    await s.ask((p) =>
      p.input(
        {
          message: 'Receipt (your reference, optional):',
          validate: (v) =>
            v.length <= LIMITS.receiptChars ? true : `a receipt is at most ${LIMITS.receiptChars} characters`,
        },
        s.context,
      ),
    )
  ).trim();
  const notes = await askNotes(s);

  const after = remaining - amount;
  const left =
    after > 0 ? `${formatMoney(after, currency)} will remain refundable.` : 'The payment will be refunded in full.';
  const noted = notes
    ? ` Notes: ${Object.entries(notes)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}.`
    : '';
  await finalConfirm(
    s,
    `Refund ${formatMoney(amount, currency)} of payment ${id} (${text(payment.email)}) now? ${left}` +
      `${receipt ? ` Receipt ${receipt}.` : ''}${noted}`,
    ctx,
  );
  // Read again right before sending: the questions took a while, and this figure is what an
  // ambiguous answer is judged by (and refuses, sending nothing, an amount above what remains now).
  const baseline = await refundBaseline(api, id).catch((err: unknown) => {
    throw ctx.signal.aborted
      ? new InterruptedError('SIGINT', 'interrupted before the refund was sent: nothing was sent')
      : err;
  });
  return refundOnce(ctx, api, baseline, {
    amount,
    receipt: receipt || undefined,
    notes,
    ...refundIdentity(undefined, notes),
  });
}

export async function guidedCapture(ctx: Context): Promise<CommandResult> {
  const s = await promptSession(ctx);
  const api = await ctx.api();
  const payment = await askPayment(s, api, 'capture', (p) =>
    p.status === 'authorized' ? true : `${p.id} is ${p.status}: only an authorized payment can be captured`,
  );
  const { id, currency } = payment;
  const amount = Number(payment.amount);
  summary(s, payment, ctx.settings.tz);
  await finalConfirm(
    s,
    `Capture ${formatMoney(amount, currency)} of payment ${id} (${text(payment.email)}) now? ` +
      'The customer is charged and it can then only be refunded.',
    ctx,
  );
  return captureOnce(ctx, api, id, amount, currency);
}
