import { DateTime } from 'luxon';
import { err, ok } from './result';
import type { Result } from './result';

interface TimeOptions {
  tz: string;
  nowMs: number;
  /** A whole-day or whole-month input means its first second for `start`, its last for `end`. */
  bound: 'start' | 'end';
}

const RELATIVE: Record<string, 'minutes' | 'hours' | 'days' | 'weeks'> = {
  m: 'minutes',
  h: 'hours',
  d: 'days',
  w: 'weeks',
};
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
  switch (text.toLowerCase()) {
    case 'now':
      return ok(seconds(now));
    case 'today':
      return ok(period(now, 'day', opts.bound));
    case 'yesterday':
      return ok(period(now.minus({ days: 1 }), 'day', opts.bound));
    // Future points, for --start-at.
    case 'tomorrow':
      return ok(period(now.plus({ days: 1 }), 'day', opts.bound));
    case 'next-month':
      return ok(period(now.plus({ months: 1 }), 'month', opts.bound));
    case 'this-month':
      return ok(period(now, 'month', opts.bound));
    case 'last-month':
      return ok(period(now.minus({ months: 1 }), 'month', opts.bound));
  }
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
