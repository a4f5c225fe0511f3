import { IANAZone } from 'luxon';
import { err, ok } from '../parse/result';
import type { Result } from '../parse/result';

export function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** --tz over PAYCTL_TZ over the machine's zone; IANA names only. */
export function resolveZone(flag?: string, env?: string): Result<string> {
  const zone = flag ?? env;
  if (zone === undefined || zone === '') return ok(localZone());
  if (zone === 'UTC' || IANAZone.isValidZone(zone)) return ok(zone);
  return err(`unknown time zone ${JSON.stringify(zone)}: use an IANA name like Asia/Kolkata or UTC`);
}
