import { err, ok } from '../contract/values/result';
import type { Result } from '../contract/values/result';

/** `--fields id,amount,notes.reason`. */
export function parseFields(raw: string): Result<string[]> {
  const fields = raw.split(',').map((f) => f.trim());
  const bad = fields.find((f) => !/^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/.test(f));
  if (bad !== undefined)
    return err(`--fields takes comma-separated names or dot paths like notes.reason: got ${JSON.stringify(bad)}`);
  return ok([...new Set(fields)]);
}

/** Walks a dot path; also finds a key the service sent with a trailing space (`"created_at "`). */
export function getPath(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    const obj = cur as Record<string, unknown>;
    cur = key in obj ? obj[key] : obj[`${key} `];
  }
  return cur;
}
