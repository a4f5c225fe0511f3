import * as z from 'zod/mini';
import { SandboxError } from './errors';

/** The parts of a JSON Schema (as zod's toJSONSchema writes it) that say which keys an object takes. */
interface Json {
  type?: string | string[];
  $ref?: string;
  $defs?: Record<string, Json>;
  properties?: Record<string, Json>;
  items?: Json;
  anyOf?: Json[];
  oneOf?: Json[];
  allOf?: Json[];
}

/**
 * Each request schema as JSON Schema, made once through zod's public converter: the input side (a
 * request is what is sent), with transforms (which JSON Schema cannot state) taking anything.
 */
const made = new WeakMap<object, Json>();
function jsonSchemaOf(schema: z.ZodMiniType): Json {
  let json = made.get(schema);
  if (!json) made.set(schema, (json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json));
  return json;
}

const shapeOf = (value: unknown) => (Array.isArray(value) ? 'array' : 'object');
const hasType = (s: Json, type: string) => (Array.isArray(s.type) ? s.type.includes(type) : s.type === type);

/** A part that names another: '#' is the root itself (a schema that reaches itself), '#/$defs/x' one of its parts. */
function deref(root: Json, at: Json): Json {
  let s = at;
  for (let i = 0; s.$ref && i < 50; i++)
    s = s.$ref === '#' ? root : (root.$defs?.[s.$ref.replace('#/$defs/', '')] ?? {});
  return s;
}

/** The first key of `value` (as a dotted path) that the schema does not take, or undefined. */
function firstUnknown(root: Json, at: Json, value: unknown, path: string, depth = 0): string | undefined {
  if (depth > 50) return undefined;
  const s = deref(root, at);
  const branches = s.anyOf ?? s.oneOf;
  if (branches) {
    // Only the branches shaped like the value (an array for an array, an object for an object) decide.
    const shaped = branches.filter((b) => {
      const r = deref(root, b);
      return r.anyOf || r.oneOf || hasType(r, shapeOf(value));
    });
    const fits = shaped.map((b) => firstUnknown(root, b, value, path, depth + 1));
    return fits.length === 0 || fits.includes(undefined) ? undefined : fits[0];
  }
  if (s.allOf) {
    for (const part of s.allOf) {
      const bad = firstUnknown(root, part, value, path, depth + 1);
      if (bad) return bad;
    }
  }
  if (Array.isArray(value)) {
    if (!s.items) return undefined;
    for (const [i, item] of value.entries()) {
      const bad = firstUnknown(root, s.items, item, `${path}${i}.`, depth + 1);
      if (bad) return bad;
    }
    return undefined;
  }
  // notes-like records (no fixed properties) take any key; only objects with a fixed shape are walked.
  if (!s.properties || value === null || typeof value !== 'object') return undefined;
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const field = Object.hasOwn(s.properties, key) ? s.properties[key] : undefined;
    if (!field) return `${path}${key}`;
    const bad = firstUnknown(root, field, inner, `${path}${key}.`, depth + 1);
    if (bad) return bad;
  }
  return undefined;
}

/**
 * The real service refuses any field an endpoint does not take, also inside nested objects
 * (`item.foo`, `transfers.0.on_hold`), instead of dropping it: a client learns at once that a field it
 * relies on is not applied. The allowed fields are those of the request schema in src/contract.
 */
export function refuseUnknownFields(schema: unknown, value: unknown): void {
  if (!schema) return;
  const json = jsonSchemaOf(schema as z.ZodMiniType);
  const bad = firstUnknown(json, json, value, '');
  if (bad) throw new SandboxError(`${bad} is/are not required and should not be sent`, 400, bad);
}
