import { err, ok } from './result';
import type { Result } from './result';

/** The machine's zone. Asking ICU costs ~10 ms on first use, so callers ask only when a time is shown. */
export function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

let canonical: Set<string> | undefined;

function isZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false;
  // ICU's list of canonical names costs ~2 ms; the first formatter it builds costs ~15 ms on every run
  // that names a zone (PAYCTL_TZ). Aliases (UTC, Asia/Calcutta) and other spellings still go to ICU.
  if ((canonical ??= new Set(Intl.supportedValuesOf('timeZone'))).has(name)) return true;
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
