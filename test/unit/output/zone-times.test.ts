// Times are worked out per call in the zone the call names; the process's own zone is never touched.
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { afterAll, describe, expect, it } from 'vitest';
import { LISTED_AS } from '../../../src/contract/values/zone';
import { isoTime, localTime, wallClockDate } from '../../../src/output/time';

const before = process.env.TZ;
const hostOffset = new Date(1_714_501_799_000).getTimezoneOffset();
afterAll(() => {
  // Nothing above moved the process: its zone and Date's offsets are as they were.
  expect(process.env.TZ).toBe(before);
  expect(new Date(1_714_501_799_000).getTimezoneOffset()).toBe(hostOffset);
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

describe('times in the zone each call names', () => {
  it.each(zones)('%s equals luxon for any time, each second around its transitions included', (tz) => {
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

  it('calls in different zones, interleaved, each get their own zone', () => {
    const s = 1714501799;
    for (let i = 0; i < 3; i++) {
      expect(isoTime(s, 'asia/kolkata')).toBe('2024-04-30T23:59:59+05:30');
      expect(isoTime(s, 'America/New_York')).toBe('2024-04-30T14:29:59-04:00');
      expect(isoTime(s, 'UTC')).toBe('2024-04-30T18:29:59Z');
      expect(localTime(s, 'Asia/Kathmandu')).toBe('2024-05-01 00:14:59');
    }
  });
});
