import { DateTime, Info } from 'luxon';
import type { Zone } from 'luxon';

const toSeconds = (value: unknown): number | undefined => {
  if (value === null || value === undefined || value === '') return undefined;
  const n = typeof value === 'number' ? value : /^-?\d+$/.test(String(value)) ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/** `2024-04-30 23:59:59 +05:30`: sortable, and the offset says which zone it is in. */
export function formatTime(value: unknown, tz: string): string {
  const s = toSeconds(value);
  return s === undefined ? '' : DateTime.fromSeconds(s, { zone: tz }).toFormat('yyyy-LL-dd HH:mm:ss ZZ');
}

/**
 * A zone's UTC offset in minutes at `s`. Exports ask for every row (twice in CSV), and asking the
 * zone database costs more than the rest of the row, so it is asked once per hour start: an hour whose
 * start and the next hour's start have the same offset has it throughout (zones change offset at most
 * a few times a year, never twice within an hour), and one with a change in it is asked about second
 * by second. Neighbouring hours share the probe between them.
 */
const starts = new Map<string, Map<number, number>>();
// The zone object luxon would make for `tz` on every DateTime, made once: the offset it gives is the DateTime's.
const zones = new Map<string, Zone>();
// Each call names its zone: the process's own time zone is never changed or relied on.
const zoneOffset = (s: number, tz: string) => {
  let zone = zones.get(tz);
  if (!zone) zones.set(tz, (zone = Info.normalizeZone(tz)));
  return zone.offset(s * 1000);
};
function offsetAt(s: number, tz: string): number {
  let known = starts.get(tz);
  if (!known) starts.set(tz, (known = new Map()));
  const h = Math.floor(s / 3600);
  const at = (hour: number) => {
    let off = known.get(hour);
    if (off === undefined) {
      if (known.size > 100_000) known.clear();
      known.set(hour, (off = zoneOffset(hour * 3600, tz)));
    }
    return off;
  };
  const start = at(h);
  return start === at(h + 1) ? start : zoneOffset(s, tz);
}

const p2 = (n: number) => (n < 10 ? `0${n}` : String(n));
const TWO = Array.from({ length: 60 }, (_, i) => p2(i));

interface Wall {
  /** `2024-04-30` and `23:59:59`, wall-clock in the zone. */
  date: string;
  clock: string;
  /** `+05:30`; `Z` for UTC itself, as luxon writes it. */
  zone: string;
}

// Rows come in time order, many to a day: the day's text is made once for all of them.
let day = NaN;
let dayText = '';
function dateText(d: number): string {
  if (d !== day) {
    const at = new Date(d * 86_400_000);
    day = d;
    dayText = `${at.getUTCFullYear()}-${TWO[at.getUTCMonth() + 1]}-${TWO[at.getUTCDate()]}`;
  }
  return dayText;
}

const isUtc = (tz: string) => /^(utc|gmt|z)$/i.test(tz);

const zoneTexts = new Map<number, string>();
function zoneText(offset: number, tz: string): string {
  if (offset === 0 && isUtc(tz)) return 'Z';
  let text = zoneTexts.get(offset);
  if (text === undefined) {
    const a = Math.abs(offset);
    zoneTexts.set(offset, (text = `${offset < 0 ? '-' : '+'}${p2(Math.floor(a / 60))}:${p2(a % 60)}`));
  }
  return text;
}

// The last time worked out: a row's `_iso` and `_local` columns ask for the same one in turn.
let lastS = NaN;
let lastTz = '';
let lastWall: Wall | undefined;

/** Wall-clock fields in `tz`, or undefined where luxon's own formatting is kept (before 1970, fractions). */
function wall(s: number, tz: string): Wall | undefined {
  if (s === lastS && tz === lastTz) return lastWall;
  lastS = s;
  lastTz = tz;
  return (lastWall = wallFields(s, tz));
}

function wallFields(s: number, tz: string): Wall | undefined {
  if (s < 0 || !Number.isInteger(s)) return undefined;
  const offset = offsetAt(s, tz);
  if (!Number.isInteger(offset)) return undefined;
  const local = s + offset * 60;
  const d = Math.floor(local / 86_400);
  const inDay = local - d * 86_400;
  const clock = `${TWO[Math.floor(inDay / 3600)]}:${TWO[Math.floor(inDay / 60) % 60]}:${TWO[inDay % 60]}`;
  return { date: dateText(d), clock, zone: zoneText(offset, tz) };
}

/** ISO 8601 with the zone's offset, no milliseconds (`Z` for UTC itself, as luxon writes it). */
export function isoTime(value: unknown, tz: string): string {
  const s = toSeconds(value);
  if (s === undefined) return '';
  const w = wall(s, tz);
  if (!w) return DateTime.fromSeconds(s, { zone: tz }).toISO({ suppressMilliseconds: true }) ?? '';
  return `${w.date}T${w.clock}${w.zone}`;
}

/** `2024-04-30 23:59:59`: the wall-clock time in `tz`, the form spreadsheets read as a date-time. */
export function localTime(value: unknown, tz: string): string {
  const s = toSeconds(value);
  if (s === undefined) return '';
  const w = wall(s, tz);
  return w ? `${w.date} ${w.clock}` : DateTime.fromSeconds(s, { zone: tz }).toFormat('yyyy-LL-dd HH:mm:ss');
}

/**
 * A Date whose UTC fields are the wall-clock time in `tz`. Spreadsheet date cells carry no zone, and
 * writers turn a Date into a cell from its UTC fields, so this is how a time lands in the zone asked.
 */
export function wallClockDate(value: unknown, tz: string): Date | undefined {
  const s = toSeconds(value);
  if (s === undefined) return undefined;
  return new Date((s + (Number.isInteger(s) && s >= 0 ? offsetAt(s, tz) : zoneOffset(s, tz)) * 60) * 1000);
}
