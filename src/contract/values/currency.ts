import { err, ok } from './result';
import type { Result } from './result';

export function parseCurrency(raw: string): Result<string> {
  const code = raw.trim().toUpperCase();
  return /^[A-Z]{3}$/.test(code)
    ? ok(code)
    : err(`currency must be a 3-letter ISO 4217 code like INR: got ${JSON.stringify(raw)}`);
}
