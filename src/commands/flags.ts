import { UsageError } from '../contract/errors';
import { parseAmount } from '../contract/values/amount';
import { parseCurrency } from '../contract/values/currency';
import { parseId } from '../contract/values/id';
import { parseInteger } from '../contract/values/integer';
import { parseNotes } from '../contract/values/notes';
import type { Result } from '../contract/values/result';
import type { Context } from './context';

/** Turns a parser's verdict into the value or a usage error (exit 2, nothing sent). */
export function need<T>(result: Result<T>, flag?: string): T {
  if (!result.ok) throw new UsageError(flag ? `${flag}: ${result.error}` : result.error);
  return result.value;
}

// A required option's value is a string, an optional one's may be undefined: the overloads keep that
// apart, so a required flag's parsed value is never typed as possibly missing.
export function amountFlag(raw: string, currency?: string, flag?: string): number;
export function amountFlag(raw: string | undefined, currency?: string, flag?: string): number | undefined;
export function amountFlag(raw: string | undefined, currency?: string, flag = '--amount') {
  return raw === undefined ? undefined : need(parseAmount(raw, currency), flag);
}

export function currencyFlag(raw: string, flag?: string): string;
export function currencyFlag(raw: string | undefined, flag?: string): string | undefined;
export function currencyFlag(raw: string | undefined, flag = '--currency') {
  return raw === undefined ? undefined : need(parseCurrency(raw), flag);
}

export const notesFlag = (raw: unknown) => {
  const pairs = (raw as string[] | undefined) ?? [];
  return pairs.length ? need(parseNotes(pairs), '--note') : undefined;
};

export function intFlag(raw: string, flag: string, min: number, max?: number): number;
export function intFlag(raw: string | undefined, flag: string, min: number, max?: number): number | undefined;
export function intFlag(raw: string | undefined, flag: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return raw === undefined ? undefined : need(parseInteger(raw, flag, { min, max }));
}

export const idArg = (raw: unknown, kind: Parameters<typeof parseId>[1]) => need(parseId(String(raw ?? ''), kind));

/** Time input; its parser (and time-zone library) loads only for commands given a time. */
export async function timeFlag(
  ctx: Context,
  raw: unknown,
  flag: string,
  bound: 'start' | 'end',
): Promise<number | undefined> {
  if (raw === undefined) return undefined;
  const { parseTimeInput } = await import('../contract/values/time');
  return need(parseTimeInput(String(raw), { tz: ctx.settings.tz, nowMs: ctx.nowMs(), bound }), flag);
}

/** --from/--to as Unix seconds, refusing an empty range before anything is sent. */
export async function rangeFlags(
  ctx: Context,
  opts: { from?: unknown; to?: unknown },
): Promise<{ from?: number; to?: number }> {
  const from = await timeFlag(ctx, opts.from, '--from', 'start');
  const to = await timeFlag(ctx, opts.to, '--to', 'end');
  if (from !== undefined && to !== undefined && from > to)
    throw new UsageError('--from is after --to: the range is empty');
  return { from, to };
}
