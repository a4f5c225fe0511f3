import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { formatTime, isoTime } from '../../../src/output/time';
import { parseTimeInput } from '../../../src/contract/values/time';
import { LISTED_AS, resolveZone } from '../../../src/contract/values/zone';

const at = (iso: string, zone: string) => Math.floor(DateTime.fromISO(iso, { zone }).toSeconds());
const parse = (raw: string, tz: string, bound: 'start' | 'end', now = '2024-05-15T12:00:00') =>
  parseTimeInput(raw, { tz, bound, nowMs: DateTime.fromISO(now, { zone: tz }).toMillis() });
const value = (r: ReturnType<typeof parse>) => (r.ok ? r.value : r.error);

describe('time input', () => {
  it.each([
    ['1714500000', 'start', 1714500000],
    ['2024-04-30T10:00:00+05:30', 'start', at('2024-04-30T04:30:00Z', 'UTC')],
    ['2024-04-30T10:00:00Z', 'end', at('2024-04-30T10:00:00Z', 'UTC')],
    ['2024-04-30T10:00', 'start', at('2024-04-30T10:00', 'Asia/Kolkata')],
    ['2024-04-30 10:00:00', 'start', at('2024-04-30T10:00', 'Asia/Kolkata')],
    ['2024-04-30', 'start', at('2024-04-30T00:00:00', 'Asia/Kolkata')],
    ['2024-04-30', 'end', at('2024-04-30T23:59:59', 'Asia/Kolkata')],
    ['today', 'start', at('2024-05-15T00:00:00', 'Asia/Kolkata')],
    ['today', 'end', at('2024-05-15T23:59:59', 'Asia/Kolkata')],
    ['yesterday', 'end', at('2024-05-14T23:59:59', 'Asia/Kolkata')],
    ['7d', 'start', at('2024-05-08T12:00:00', 'Asia/Kolkata')],
    ['24h', 'end', at('2024-05-14T12:00:00', 'Asia/Kolkata')],
    ['this-month', 'start', at('2024-05-01T00:00:00', 'Asia/Kolkata')],
    ['last-month', 'start', at('2024-04-01T00:00:00', 'Asia/Kolkata')],
    ['last-month', 'end', at('2024-04-30T23:59:59', 'Asia/Kolkata')],
    ['tomorrow', 'start', at('2024-05-16T00:00:00', 'Asia/Kolkata')],
    ['next-month', 'start', at('2024-06-01T00:00:00', 'Asia/Kolkata')],
  ] as const)('%s (%s) in Asia/Kolkata', (raw, bound, want) =>
    expect(value(parse(raw, 'Asia/Kolkata', bound))).toBe(want),
  );

  it('last-month across a year boundary', () => {
    expect(value(parse('last-month', 'UTC', 'start', '2025-01-10T08:00:00'))).toBe(at('2024-12-01T00:00:00', 'UTC'));
    expect(value(parse('last-month', 'UTC', 'end', '2025-01-10T08:00:00'))).toBe(at('2024-12-31T23:59:59', 'UTC'));
  });

  it.each(['Asia/Kolkata', 'America/New_York', 'Europe/London'])(
    '--to DATE includes 23:59:59 and excludes the next 00:00:00 (%s)',
    (tz) => {
      // 2024-03-10 and 2024-03-31 are DST change days in New York and London.
      for (const day of ['2024-03-10', '2024-03-31', '2024-11-03']) {
        const to = value(parse(day, tz, 'end')) as number;
        const from = value(parse(day, tz, 'start')) as number;
        const last = at(`${day}T23:59:59`, tz);
        const next = Math.floor(DateTime.fromISO(day, { zone: tz }).plus({ days: 1 }).startOf('day').toSeconds());
        expect(last).toBeLessThanOrEqual(to);
        expect(next).toBeGreaterThan(to);
        expect(from).toBe(Math.floor(DateTime.fromISO(day, { zone: tz }).startOf('day').toSeconds()));
      }
    },
  );

  it.each(['next tuesday', '1714500000000', '2024-13-01', '2024-02-30', '', '-5d'])(
    '%j is refused with the accepted forms',
    (raw) => {
      const r = parse(raw, 'UTC', 'start');
      expect(r.ok).toBe(false);
    },
  );

  it('hints at milliseconds', () => expect(value(parse('1714500000000', 'UTC', 'start'))).toMatch(/milliseconds/));
});

describe('zones and formatting', () => {
  it('validates IANA names', () => {
    expect(resolveZone('Asia/Kolkata')).toEqual({ ok: true, value: 'Asia/Kolkata' });
    expect(resolveZone(undefined, 'Europe/London')).toEqual({ ok: true, value: 'Europe/London' });
    expect(resolveZone('Mars/Olympus').ok).toBe(false);
    expect(resolveZone().ok).toBe(true);
  });

  it.each(Object.entries(LISTED_AS))('%s is accepted without a formatter, and ICU knows it as %s', (name, listed) => {
    expect(resolveZone(name)).toEqual({ ok: true, value: name });
    expect(new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone).toBe(listed);
  });

  it.each([
    ['UTC', true],
    ['Etc/UTC', true],
    ['GMT', true],
    ['asia/kolkata', true], // not listed: ICU is asked
    ['Asia/Kolkatta', false],
    ['Asia/Calcutta', true],
    ['../etc/passwd', false],
  ])('zone %s valid: %s', (name, ok) => expect(resolveZone(name).ok).toBe(ok));

  it('shows times in the zone with their offset', () => {
    expect(formatTime(1714501799, 'Asia/Kolkata')).toBe('2024-04-30 23:59:59 +05:30');
    expect(formatTime('1714501799', 'UTC')).toBe('2024-04-30 18:29:59 +00:00');
    expect(isoTime(1714501799, 'Asia/Kolkata')).toBe('2024-04-30T23:59:59+05:30');
    expect(formatTime(null, 'UTC')).toBe('');
    expect(formatTime('soon', 'UTC')).toBe('');
  });
});
