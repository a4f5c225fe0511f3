import { err, ok } from './result';
import type { Result } from './result';

/**
 * The zone this process's Date works in, by name: the machine's once asked for, or the one payctl
 * moved the process to. Offsets in it come from Date, which needs none of ICU's formatters (the first
 * one a process makes costs ~25 ms, more than the rest of a 20,000-row export's time arithmetic).
 */
let processZone: string | undefined;

/** The machine's zone. Asking ICU costs ~10 ms on first use, so callers ask only when a time is shown. */
export function localZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  processZone ??= zone;
  return zone;
}

/**
 * Moves the process (its Date, and any child it starts) to `zone`, when `zone` is a name ICU itself
 * lists, so Date reads it as Intl does; any other spelling stays with Intl. `env` is process.env: Node
 * re-reads the zone when TZ is assigned there.
 */
export function moveProcessTo(zone: string, env: NodeJS.ProcessEnv): void {
  if (!isListed(zone)) return;
  env.TZ = zone;
  processZone = zone;
}

/** Whether Date's own local time is `zone`'s. */
export const isProcessZone = (zone: string): boolean => zone === processZone;

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
  // ICU's list of canonical names costs ~2 ms; the first formatter it builds costs ~15-25 ms on every
  // run that names a zone (PAYCTL_TZ), and most commands never format a time. Other spellings
  // (lower case, other aliases) still go to ICU.
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
