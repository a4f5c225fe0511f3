import { err, ok } from '../../contract/values/result';
import type { Result } from '../../contract/values/result';

export interface Field {
  key: string;
  value: unknown;
  /** As typed, for the query string of a GET. */
  text: string;
}

/** `-F key=value`: true, false, null and numbers become JSON values (as `gh api -F` does); `-f` keeps text. */
export function parseField(pair: string, typed: boolean): Result<Field> {
  const at = pair.indexOf('=');
  const flag = typed ? '-F' : '-f';
  if (at <= 0) return err(`${flag} takes key=value: got ${JSON.stringify(pair)}`);
  const key = pair.slice(0, at);
  const text = pair.slice(at + 1);
  if (!/^[A-Za-z0-9_.-]+(\[[A-Za-z0-9_.-]*\])*$/.test(key))
    return err(`${flag}: a key is letters, digits, _ . - with optional [sub] parts: got ${JSON.stringify(key)}`);
  if (!typed) return ok({ key, value: text, text });
  let value: unknown = text;
  if (text === 'true' || text === 'false') value = text === 'true';
  else if (text === 'null') value = null;
  else if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(text) && Number.isSafeInteger(Math.trunc(Number(text))))
    value = Number(text);
  return ok({ key, value, text });
}

/** Fields as a JSON body: `notes[reason]=x` nests, `items[]=a` appends to an array. */
export function fieldsToBody(fields: Field[]): Result<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  for (const { key, value } of fields) {
    const [head, ...rest] = key.split('[').map((p, i) => (i === 0 ? p : p.slice(0, -1)));
    const parts = [head!, ...rest];
    let target: Record<string, unknown> | unknown[] = body;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      const last = i === parts.length - 1;
      if (Array.isArray(target)) {
        if (part !== '' || !last) return err(`-F ${key}: only a final [] may follow an array`);
        target.push(value);
        break;
      }
      if (last) {
        if (part === '') return err(`-F ${key}: [] needs a name before it`);
        if (Object.hasOwn(target, part)) return err(`-F ${key} is given twice`);
        target[part] = value;
        break;
      }
      const nextIsArray = parts[i + 1] === '';
      const existing = target[part];
      if (existing === undefined) target[part] = nextIsArray ? [] : {};
      else if (nextIsArray !== Array.isArray(existing) || existing === null || typeof existing !== 'object')
        return err(`-F ${key} conflicts with another field`);
      target = target[part] as Record<string, unknown> | unknown[];
    }
  }
  return ok(body);
}

/**
 * A path below the base URL, with an optional query string. The base URL's own prefix (/v1) is taken
 * off if typed, full URLs are refused (the profile decides where requests go), and nothing may climb
 * out of the prefix.
 */
export function parseApiPath(raw: string, prefix: string): Result<{ path: string; query: Record<string, string> }> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw))
    return err(`give a path below the profile's base URL, not a full URL: got ${JSON.stringify(raw)}`);
  const withSlash = raw.startsWith('/') ? raw : `/${raw}`;
  const [pathPart = '', search = ''] = withSlash.split(/\?(.*)/s);
  if (!/^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/.test(pathPart))
    return err(`the path has characters that need encoding: ${JSON.stringify(raw)}`);
  const segments = pathPart.split('/').slice(1);
  if (
    segments.some(
      (s, i) => s === '.' || s === '..' || /%2e%2e|%2f|%5c/i.test(s) || (s === '' && i < segments.length - 1),
    )
  ) {
    return err(`the path may not contain empty, . or .. segments or encoded slashes: ${JSON.stringify(raw)}`);
  }
  let path = pathPart.replace(/\/+$/, '') || '/';
  if (prefix && (path === prefix || path.startsWith(`${prefix}/`))) path = path.slice(prefix.length) || '/';
  return ok({ path, query: Object.fromEntries(new URLSearchParams(search)) });
}
