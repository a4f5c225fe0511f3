import { err, ok } from './result';
import type { Result } from './result';

/** The machine's zone, asked of Intl only when a time is shown. */
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

function isListed(name: string): boolean {
  if (/^(Etc\/)?(UTC|GMT)$/.test(name)) return true;
  canonical ??= new Set(Intl.supportedValuesOf('timeZone'));
  return canonical.has(name) || canonical.has(LISTED_AS[name] ?? '');
}

function isZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false;
  // A name ICU lists needs no formatter built to be known valid (most commands never format a time);
  // other spellings (lower case, other aliases) go to ICU.
  if (isListed(name)) return true;
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
