import { err, ok } from './result';
import type { Result } from './result';

/** A JSON object: not null, not an array. */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** JSON text parsed, or the parser's complaint. */
export function parseJson(text: string): Result<unknown> {
  try {
    return ok(JSON.parse(text));
  } catch (e) {
    return err((e as Error).message);
  }
}
