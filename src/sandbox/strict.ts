import { SandboxError } from './errors';

/** The parts of a zod schema's definition the walk below reads. */
interface Def {
  type: string;
  getter?: () => Schema;
  shape?: Record<string, Schema>;
  innerType?: Schema;
  in?: Schema;
  options?: Schema[];
  element?: Schema;
}
interface Schema {
  _zod: { def: Def };
}

/** Lazy, optional and pipe wrappers peeled off: the schema that decides which keys an object takes. */
function unwrap(schema: Schema): Schema {
  let s = schema;
  for (let i = 0; i < 20; i++) {
    const def = s._zod.def;
    if (def.type === 'lazy' && def.getter) s = def.getter();
    else if ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default') && def.innerType)
      s = def.innerType;
    else if (def.type === 'pipe' && def.in) s = def.in;
    else break;
  }
  return s;
}

/** The first key of `value` (as a dotted path) that the schema does not take, or undefined. */
function firstUnknown(schema: Schema, value: unknown, path: string): string | undefined {
  const s = unwrap(schema);
  const def = s._zod.def;
  if (def.type === 'union' && def.options) {
    // Only the branches shaped like the value (an array for an array, an object for an object) decide.
    const shaped = def.options.filter((o) => unwrap(o)._zod.def.type === (Array.isArray(value) ? 'array' : 'object'));
    const fits = shaped.map((o) => firstUnknown(o, value, path));
    return fits.length === 0 || fits.includes(undefined) ? undefined : fits[0];
  }
  if (def.type === 'array' && def.element && Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const bad = firstUnknown(def.element, item, `${path}${i}.`);
      if (bad) return bad;
    }
    return undefined;
  }
  if (def.type !== 'object' || !def.shape || value === null || typeof value !== 'object' || Array.isArray(value))
    return undefined;
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const field = def.shape[key];
    if (!field) return `${path}${key}`;
    // notes-like records take any key; only objects with a fixed shape are walked.
    const bad = firstUnknown(field, inner, `${path}${key}.`);
    if (bad) return bad;
  }
  return undefined;
}

/**
 * The real service refuses any field an endpoint does not take, also inside nested objects
 * (`item.foo`, `transfers.0.on_hold`), instead of dropping it: a client learns at once that a field it
 * relies on is not applied. The allowed fields are those of the request schema in src/spec.
 */
export function refuseUnknownFields(schema: unknown, value: unknown): void {
  if (!schema) return;
  const bad = firstUnknown(schema as Schema, value, '');
  if (bad) throw new SandboxError(`${bad} is/are not required and should not be sent`, 400, bad);
}
