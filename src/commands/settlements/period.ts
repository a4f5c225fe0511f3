import { UsageError } from '../../contract/errors';

/** India's offset from UTC (no daylight saving): the service counts settlement days in Asia/Kolkata. */
const IST = 19_800;

/** The settlement days a reconciliation covers: a month, or one day of it, as the service's report takes them. */
export interface ReconPeriod {
  year: number;
  month: number;
  day?: number;
  /** Its first and last second (Unix), for the payments captured in it. */
  from: number;
  to: number;
  label: string;
}

export function reconPeriod(month: string, day?: string): ReconPeriod {
  const m = /^(\d{4})-(\d{2})$/.exec(month.trim());
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12)
    throw new UsageError(`--month must be a month as YYYY-MM, e.g. 2024-04: got "${month}"`);
  const year = Number(m[1]);
  const mon = Number(m[2]);
  const last = new Date(Date.UTC(year, mon, 0)).getUTCDate();
  let d: number | undefined;
  if (day !== undefined) {
    d = Number(day.trim());
    if (!/^\d{1,2}$/.test(day.trim()) || d < 1 || d > last)
      throw new UsageError(`--day must be a day of ${month.trim()}, 1-${last}: got "${day}"`);
  }
  const start = Date.UTC(year, mon - 1, d ?? 1) / 1000 - IST;
  const end = (d === undefined ? Date.UTC(year, mon, 1) : Date.UTC(year, mon - 1, d + 1)) / 1000 - IST;
  const label = `${m[1]}-${m[2]}${d === undefined ? '' : `-${String(d).padStart(2, '0')}`}`;
  return { year, month: mon, day: d, from: start, to: end - 1, label };
}

/** The settlement day (Asia/Kolkata) of a settlement made at `t`, as `--month` and `--day` name it. */
export function settlementDay(t: number): { month: string; day: string } {
  const d = new Date((t + IST) * 1000);
  return {
    month: `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`,
    day: String(d.getUTCDate()),
  };
}
