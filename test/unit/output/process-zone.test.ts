// The process is moved from zone to zone here (TZ), as payctl moves itself to --tz: every test file
// runs in its own worker, so no other file sees it.
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { afterAll, describe, expect, it } from 'vitest';
import { isProcessZone, LISTED_AS, moveProcessTo } from '../../../src/contract/values/zone';
import { isoTime, localTime, wallClockDate } from '../../../src/output/time';

const before = process.env.TZ;
afterAll(() => {
  if (before === undefined) delete process.env.TZ;
  else process.env.TZ = before;
});

const zones = [
  'UTC',
  'Asia/Kolkata',
  'America/New_York',
  'Europe/London',
  'Europe/Dublin',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'America/St_Johns',
  'Pacific/Chatham',
  'Africa/Casablanca',
  'Africa/Monrovia',
  ...Object.keys(LISTED_AS),
];

describe('times in the zone the process was moved to (Date, not an ICU formatter)', () => {
  it.each(zones)('%s equals luxon for any time, each second around its transitions included', (tz) => {
    moveProcessTo(tz, process.env);
    expect(isProcessZone(tz)).toBe(true);
    const same = (s: number) => {
      const dt = DateTime.fromSeconds(s, { zone: tz });
      expect(isoTime(s, tz)).toBe(dt.toISO({ suppressMilliseconds: true }));
      expect(localTime(s, tz)).toBe(dt.toFormat('yyyy-LL-dd HH:mm:ss'));
      expect(wallClockDate(s, tz)!.toISOString().slice(0, 19)).toBe(dt.toFormat("yyyy-LL-dd'T'HH:mm:ss"));
    };
    fc.assert(fc.property(fc.integer({ min: 0, max: 4_102_444_800 }), same), { numRuns: 600 });
    // The zone's offset changes in 2020-2026, found by luxon hour by hour, and every second near each.
    let prev = DateTime.fromSeconds(1_577_836_800, { zone: tz }).offset;
    for (let s = 1_577_836_800; s < 1_798_761_600; s += 3600) {
      const offset = DateTime.fromSeconds(s, { zone: tz }).offset;
      if (offset !== prev) for (let t = s - 3605; t <= s + 5; t += t < s - 3595 || t > s - 5 ? 1 : 60) same(t);
      prev = offset;
    }
  });

  it('a zone ICU does not list by that name leaves the process where it was', () => {
    moveProcessTo('UTC', process.env);
    moveProcessTo('asia/kolkata', process.env);
    expect(process.env.TZ).toBe('UTC');
    expect(isProcessZone('asia/kolkata')).toBe(false);
    expect(isoTime(1714501799, 'asia/kolkata')).toBe('2024-04-30T23:59:59+05:30');
  });
});
