import { err, ok } from './result';
import type { Result } from './result';
import { idPrefix } from '../kinds';
import type { IdKind } from '../kinds';

export type { IdKind };

/** An id as pasted: surrounding whitespace is forgiven, anything that could change the URL path is not. */
export function parseId(raw: string, kind: IdKind): Result<string> {
  const id = raw.trim();
  const prefix = `${idPrefix(kind)}_`;
  if (new RegExp(`^${prefix}[A-Za-z0-9]{1,40}$`).test(id)) return ok(id);
  return err(
    `${kind.replace('_', ' ')} id must look like ${prefix}XXXXXXXXXXXXXX: ` +
      `got ${JSON.stringify(raw.length > 60 ? `${raw.slice(0, 60)}…` : raw)}`,
  );
}
