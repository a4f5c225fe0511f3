import { DateTime } from 'luxon';
import { err, ok } from './result';
import type { Result } from './result';

interface TimeOptions {
  tz: string;
  nowMs: number;
  /** A whole-day or whole-month input means its first second for `start`, its last for `end`. */
  bound: 'start' | 'end';
}

/** `7d`: so long before now, by unit letter. */
export const RELATIVE: Record<string, 'minutes' | 'hours' | 'days' | 'weeks'> = {
  m: 'minutes',
  h: 'hours',
  d: 'days',
  w: 'weeks',
};
/** Named days and months, from now (tomorrow and next-month are future points, for --start-at). */
export const NAMED_PERIODS = new Map<string, { unit: 'day' | 'month'; shift: { days?: number; months?: number } }>([
  ['today', { unit: 'day', shift: {} }],
  ['yesterday', { unit: 'day', shift: { days: -1 } }],
  ['tomorrow', { unit: 'day', shift: { days: 1 } }],
  ['this-month', { unit: 'month', shift: {} }],
  ['last-month', { unit: 'month', shift: { months: -1 } }],
  ['next-month', { unit: 'month', shift: { months: 1 } }],
]);
const seconds = (dt: DateTime) => Math.floor(dt.toSeconds());

function period(start: DateTime, unit: 'day' | 'month', bound: 'start' | 'end'): number {
  return seconds(bound === 'start' ? start.startOf(unit) : start.endOf(unit));
}

/** A point in time for --from/--to/--start-at, as Unix seconds; the forms are listed in the error. */
export function parseTimeInput(raw: string, opts: TimeOptions): Result<number> {
  const text = raw.trim();
  const now = DateTime.fromMillis(opts.nowMs, { zone: opts.tz });
  if (/^\d{13}$/.test(text)) return err(`${text} looks like milliseconds; give Unix seconds (${text.slice(0, 10)})`);
  if (/^\d+$/.test(text)) return ok(Number(text));
  const rel = /^(\d+)([mhdw])$/.exec(text);
  if (rel) return ok(seconds(now.minus({ [RELATIVE[rel[2]!]!]: Number(rel[1]) })));
  if (text.toLowerCase() === 'now') return ok(seconds(now));
  const named = NAMED_PERIODS.get(text.toLowerCase());
  if (named) return ok(period(now.plus(named.shift), named.unit, opts.bound));
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const day = DateTime.fromISO(text, { zone: opts.tz });
    if (day.isValid) return ok(period(day, 'day', opts.bound));
  } else if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(text)) {
    const dt = DateTime.fromISO(text.replace(' ', 'T'), { zone: opts.tz, setZone: false });
    if (dt.isValid) return ok(seconds(dt));
  }
  return err(
    `cannot read time ${JSON.stringify(raw)}: use Unix seconds, 2024-04-30, 2024-04-30T10:00[+05:30], ` +
      '7d/24h/30m, now, today, yesterday, tomorrow, this-month, last-month or next-month',
  );
}
