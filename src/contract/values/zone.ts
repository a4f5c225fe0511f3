import { err, ok } from './result';
import type { Result } from './result';

/** The machine's zone. Asking ICU costs ~10 ms on first use, so callers ask only when a time is shown. */
export function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

let canonical: Set<string> | undefined;

/**
 * IANA's current names that ICU lists under the older name CLDR keeps (Asia/Kolkata as Asia/Calcutta).
 * A name here is known to be valid only if ICU lists the older one.
 */
export const LISTED_AS: Record<string, string> = {
  'Asia/Kolkata': 'Asia/Calcutta',
  'Asia/Kathmandu': 'Asia/Katmandu',
  'Asia/Ho_Chi_Minh': 'Asia/Saigon',
  'Asia/Yangon': 'Asia/Rangoon',
  'Europe/Kyiv': 'Europe/Kiev',
  'America/Nuuk': 'America/Godthab',
  'Atlantic/Faroe': 'Atlantic/Faeroe',
  'Africa/Asmara': 'Africa/Asmera',
  'America/Argentina/Buenos_Aires': 'America/Buenos_Aires',
  'America/Indiana/Indianapolis': 'America/Indianapolis',
  'America/Kentucky/Louisville': 'America/Louisville',
};

function isZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false;
  // ICU's list of canonical names costs ~2 ms; the first formatter it builds costs ~15-25 ms on every
  // run that names a zone (PAYCTL_TZ), and most commands never format a time. Other spellings
  // (lower case, other aliases) still go to ICU.
  if (/^(Etc\/)?(UTC|GMT)$/.test(name)) return true;
  canonical ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (canonical.has(name) || canonical.has(LISTED_AS[name] ?? '')) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** --tz over PAYCTL_TZ over the machine's zone; IANA names only. */
export function resolveZone(flag?: string, env?: string): Result<string> {
  const zone = flag ?? env;
  if (zone === undefined || zone === '') return ok(localZone());
  if (isZone(zone)) return ok(zone);
  return err(`unknown time zone ${JSON.stringify(zone)}: use an IANA name like Asia/Kolkata or UTC`);
}
