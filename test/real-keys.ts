import { readFileSync } from 'node:fs';

// Key-set comparison of sandbox records with the real service's payloads (test/fixtures/real/),
// shared by the unit test and the SDK conformance suite.

export type Obj = Record<string, unknown>;

export const realFixture = (file: string): Obj =>
  JSON.parse(readFileSync(new URL(`./fixtures/real/${file}`, import.meta.url), 'utf8')) as Obj;

/** Values that are free-form maps in the real payloads: their keys are data, not shape. */
const FREE_FORM = new Set(['notes', 'acquirer_data', 'metadata', 'payload']);
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Keys of `expected` (nested objects included, as dotted paths) missing from `actual`. */
export function missingKeys(expected: Obj, actual: Obj, path = ''): string[] {
  const missing: string[] = [];
  for (const [key, value] of Object.entries(expected)) {
    if (!(key in actual)) missing.push(`${path}${key}`);
    else if (!FREE_FORM.has(key) && isObject(value) && Object.keys(value).length && isObject(actual[key])) {
      missing.push(...missingKeys(value, actual[key] as Obj, `${path}${key}.`));
    }
  }
  return missing;
}
