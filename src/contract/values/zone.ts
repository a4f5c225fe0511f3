import { err, ok } from './result';
import type { Result } from './result';

/** The machine's zone. Asking ICU costs ~10 ms on first use, so callers ask only when a time is shown. */
export function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

function isZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false;
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
