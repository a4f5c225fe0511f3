import { DateTime } from 'luxon';

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

/** ISO 8601 with the zone's offset, no milliseconds. */
export function isoTime(value: unknown, tz: string): string {
  const s = toSeconds(value);
  return s === undefined ? '' : (DateTime.fromSeconds(s, { zone: tz }).toISO({ suppressMilliseconds: true }) ?? '');
}

/** `2024-04-30 23:59:59`: the wall-clock time in `tz`, the form spreadsheets read as a date-time. */
export function localTime(value: unknown, tz: string): string {
  const s = toSeconds(value);
  return s === undefined ? '' : DateTime.fromSeconds(s, { zone: tz }).toFormat('yyyy-LL-dd HH:mm:ss');
}

/**
 * A Date whose UTC fields are the wall-clock time in `tz`. Spreadsheet date cells carry no zone, and
 * writers turn a Date into a cell from its UTC fields, so this is how a time lands in the zone asked.
 */
export function wallClockDate(value: unknown, tz: string): Date | undefined {
  const s = toSeconds(value);
  if (s === undefined) return undefined;
  return new Date((s + DateTime.fromSeconds(s, { zone: tz }).offset * 60) * 1000);
}
