import { err, ok } from './result';
import type { Result } from './result';

export function parseInteger(raw: string, name: string, range: { min: number; max: number }): Result<number> {
  const text = raw.trim();
  const within = range.max === Number.MAX_SAFE_INTEGER ? `${range.min} or more` : `from ${range.min} to ${range.max}`;
  if (!/^\d+$/.test(text)) return err(`${name} must be a whole number ${within}: got ${JSON.stringify(raw)}`);
  const value = Number(text);
  if (value < range.min || value > range.max) return err(`${name} must be a whole number ${within}: got "${text}"`);
  return ok(value);
}
