import { err, ok } from '../values/result';
import type { Result } from '../values/result';

/**
 * A webhook secret as read from a file, the environment or stdin: one trailing line break dropped (an
 * editor's or `echo`'s), nothing else changed. Empty or only white space is refused: an HMAC with an
 * empty key is one anybody can make, so a check against it proves nothing.
 */
export function secretText(raw: string, from: string): Result<string> {
  const text = raw.replace(/\r?\n$/, '');
  if (text.trim() === '') return err(`${from} is empty: a webhook secret cannot be empty or white space`);
  return ok(text);
}

/** A secret the sandbox signs with (`sandbox start --webhook-secret`, a rotation): printable, no spaces. */
export function sandboxSecret(text: string, from: string): Result<string> {
  if (!/^[\x21-\x7e]{8,256}$/.test(text)) return err(`${from} must be 8 to 256 printable characters without spaces`);
  return ok(text);
}
