import type * as z from 'zod/mini';

type Accepts = (value: unknown) => boolean;

interface Def {
  type: string;
  checks?: Array<{ _zod: { def: { check?: string; format?: string; pattern?: RegExp } } }>;
  shape?: Record<string, z.ZodMiniType>;
  catchall?: z.ZodMiniType;
  element?: z.ZodMiniType;
  options?: z.ZodMiniType[];
  innerType?: z.ZodMiniType;
  keyType?: z.ZodMiniType;
  valueType?: z.ZodMiniType;
  values?: unknown[];
  getter?: () => z.ZodMiniType;
}

const internals = (schema: z.ZodMiniType) =>
  (schema as unknown as { _zod: { def: Def; optin?: string; optout?: string } })._zod;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** zod's own test for a record: an object whose constructor, if it has one, builds plain objects. */
function isPlainObject(v: unknown): boolean {
  if (!isObject(v)) return false;
  const ctor = (v as { constructor?: unknown }).constructor;
  if (ctor === undefined || typeof ctor !== 'function') return true;
  const proto = (ctor as { prototype?: unknown }).prototype;
  return isObject(proto) && Object.prototype.hasOwnProperty.call(proto, 'isPrototypeOf');
}

/** A string schema as one test, if each of its checks is a pattern (the only kind response schemas use). */
function stringTest(def: Def): Accepts | undefined {
  const found: RegExp[] = [];
  for (const check of def.checks ?? []) {
    const d = check._zod.def;
    if (d.check !== 'string_format' || d.format !== 'regex' || !d.pattern) return undefined;
    found.push(d.pattern);
  }
  if (!found.length) return (v) => typeof v === 'string';
  return (v) =>
    typeof v === 'string' &&
    found.every((p) => {
      p.lastIndex = 0;
      return p.test(v);
    });
}

/** zod's rule for a key an object lacks: allowed only where the key's schema takes an absent value. */
function absence(schema: z.ZodMiniType): () => boolean {
  const { optin, optout } = internals(schema);
  if (optin === undefined) return () => false;
  if (optout === 'optional') return () => true;
  const test = accepts(schema);
  return () => test(undefined);
}

const made = new WeakMap<z.ZodMiniType, Accepts>();

/**
 * Whether `schema` accepts a value, read from the schema's own definition, without the parsed copy
 * zod builds on the way (and its result object per field): responses are kept as sent, so for a page
 * of records that copy was work and garbage for nothing. The schemas stay the one statement of what
 * an answer must be: a kind of schema this does not know is asked of zod itself, and a value this
 * refuses goes to zod for the reason. Held to zod's verdicts by the accepts unit test.
 */
export function accepts(schema: z.ZodMiniType): Accepts {
  let test = made.get(schema);
  // A schema that reaches itself does so through z.lazy, which is followed on first use, not here.
  if (!test) made.set(schema, (test = build(schema)));
  return test;
}

function build(schema: z.ZodMiniType): Accepts {
  const def = internals(schema).def;
  const byZod: Accepts = (v) => schema.safeParse(v).success;
  if (def.checks?.length && def.type !== 'string') return byZod;
  switch (def.type) {
    case 'string':
      return stringTest(def) ?? byZod;
    case 'number':
      return (v) => typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'unknown':
    case 'any':
      return () => true;
    case 'literal': {
      const values = new Set(def.values);
      return (v) => values.has(v);
    }
    case 'optional': {
      const inner = accepts(def.innerType!);
      return (v) => v === undefined || inner(v);
    }
    case 'nullable': {
      const inner = accepts(def.innerType!);
      return (v) => v === null || inner(v);
    }
    case 'union': {
      const options = def.options!.map(accepts);
      return (v) => options.some((o) => o(v));
    }
    case 'lazy': {
      let inner: Accepts | undefined;
      return (v) => (inner ??= accepts(def.getter!()))(v);
    }
    case 'array': {
      const element = accepts(def.element!);
      return (v) => Array.isArray(v) && v.every((e) => element(e));
    }
    case 'record': {
      const key = internals(def.keyType!).def;
      if (key.type !== 'string' || key.checks?.length) return byZod;
      const value = accepts(def.valueType!);
      return (v) => isPlainObject(v) && Object.values(v as object).every((e) => value(e));
    }
    case 'object': {
      if (def.catchall && internals(def.catchall).def.type !== 'unknown') return byZod;
      const keys = Object.entries(def.shape!).map(([key, s]) => ({ key, test: accepts(s), absent: absence(s) }));
      return (v) => {
        if (!isObject(v)) return false;
        for (const { key, test, absent } of keys) if (!(key in v ? test(v[key]) : absent())) return false;
        return true;
      };
    }
    default:
      return byZod;
  }
}
