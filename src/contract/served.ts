import * as z from 'zod/mini';
import { looseInt, responseNotes } from './common';
import { KINDS } from './kinds';
import type { Declared, ReadKind, RecordKind } from './kinds';
import type { FieldSpec, FieldTag, KindDeclaration, NestedField } from './kinds/declare';
import { page } from './requests';
import { collectionOf, resource } from './record-schema';

/**
 * What derives from a kind whose record is declared in src/contract/kinds (its `record`): the schema
 * payctl reads its records with (tolerant, as every response schema), the schema of the record exactly
 * as the service sends it (the sandbox's records are its z.infer, its answers are checked against it),
 * and, for a kind the service `reads`, its two endpoints: `GET /{path}` and `GET /{path}/:id`.
 */

/** A kind's declaration by name (the literal types are for the types below; these read the values). */
const decl = (kind: string): KindDeclaration => (KINDS as Record<string, KindDeclaration>)[kind]!;

type Base = 'string' | 'int' | 'number' | 'bool';
type Schemas = Record<Base, () => z.ZodMiniType>;
const READ = { string: () => z.string(), int: () => looseInt, number: () => z.number(), bool: () => z.boolean() };
const EXACT = { string: () => z.string(), int: () => z.int(), number: () => z.number(), bool: () => z.boolean() };

/** One field's schema, as payctl reads it (`read`) or exactly as the service sends it. */
function fieldSchema(spec: FieldSpec, read: boolean): z.ZodMiniType {
  if (typeof spec === 'object') {
    const object = z.looseObject(shapeOf(spec.object, read));
    return !spec.nullable ? object : read ? z.nullish(object) : z.nullable(object);
  }
  if (spec === 'notes') return read ? responseNotes : z.record(z.string(), z.unknown());
  if (spec === 'json' || (read && (spec === 'any' || spec.startsWith('~')))) return z.optional(z.unknown());
  if (spec === 'any') return z.unknown();
  if (spec.startsWith('old:')) {
    const now = fieldSchema(spec.slice(4) as FieldTag, read);
    return read ? now : z.optional(now);
  }
  const tag = spec.replace(/^~/, '');
  const table: Schemas = read ? READ : EXACT;
  const types = tag.replace(/\?$/, '').split('|') as Base[];
  const one = types.length === 1 ? table[types[0]!]() : z.union(types.map((t) => table[t]()));
  if (!tag.endsWith('?')) return one;
  return read ? z.nullish(one) : z.nullable(one);
}

const shapeOf = (fields: Readonly<Record<string, FieldSpec>>, read: boolean) =>
  Object.fromEntries(Object.entries(fields).map(([f, spec]) => [f, fieldSchema(spec, read)]));

// The same, as types: what z.infer of the schemas above gives.
type ReadBase = { string: z.ZodMiniString; int: typeof looseInt; number: z.ZodMiniNumber; bool: z.ZodMiniBoolean };
type ExactBase = { string: z.ZodMiniString; int: z.ZodMiniNumber; number: z.ZodMiniNumber; bool: z.ZodMiniBoolean };
type Either<U, B extends Record<Base, z.ZodMiniType>> = U extends `${infer A extends Base}|${infer C extends Base}`
  ? z.ZodMiniUnion<[B[A], B[C]]>
  : U extends keyof B
    ? B[U]
    : never;
type Loose<S> = z.ZodMiniObject<S extends z.core.$ZodLooseShape ? S : never, z.core.$loose>;
type ReadOf<T> = T extends NestedField
  ? T['nullable'] extends true
    ? z.ZodMiniOptional<z.ZodMiniNullable<Loose<ReadShape<T['object']>>>>
    : Loose<ReadShape<T['object']>>
  : T extends 'notes'
    ? typeof responseNotes
    : T extends 'json' | 'any' | `~${string}`
      ? z.ZodMiniOptional<z.ZodMiniUnknown>
      : T extends `old:${infer V}`
        ? ReadOf<V>
        : T extends `${infer U}?`
          ? z.ZodMiniOptional<z.ZodMiniNullable<Either<U, ReadBase>>>
          : Either<T, ReadBase>;
type ExactOf<T> = T extends NestedField
  ? T['nullable'] extends true
    ? z.ZodMiniNullable<Loose<ExactShape<T['object']>>>
    : Loose<ExactShape<T['object']>>
  : T extends 'notes'
    ? z.ZodMiniRecord<z.ZodMiniString, z.ZodMiniUnknown>
    : T extends 'json'
      ? z.ZodMiniOptional<z.ZodMiniUnknown>
      : T extends `old:${infer V}`
        ? z.ZodMiniOptional<ExactOf<V>>
        : T extends 'any'
          ? z.ZodMiniUnknown
          : T extends `~${infer V}`
            ? ExactOf<V>
            : T extends `${infer U}?`
              ? z.ZodMiniNullable<Either<U, ExactBase>>
              : Either<T, ExactBase>;
type ReadShape<R> = { -readonly [F in keyof R]: ReadOf<R[F]> };
type ExactShape<R> = { -readonly [F in keyof R]: ExactOf<R[F]> };

type Fields<K extends RecordKind> = Declared[K] extends { record: infer R extends Record<string, FieldSpec> }
  ? R
  : never;
type Entity<K extends RecordKind> = Declared[K] extends { entity: infer E extends string } ? E : never;
type Path<K extends RecordKind> = Declared[K] extends { path: infer P extends string } ? P : never;

const readingSchemas = new Map<RecordKind, z.ZodMiniType>();

/** The schema payctl reads these records with (one per kind, so a page's items are checked compiled). */
export function readingSchema<K extends RecordKind>(kind: K) {
  let schema = readingSchemas.get(kind);
  if (!schema) {
    schema = resource(decl(kind).entity!, () => shapeOf(decl(kind).record!, true));
    readingSchemas.set(kind, schema);
  }
  return schema as z.ZodMiniLazy<
    Loose<{ id: z.ZodMiniString; entity: z.ZodMiniLiteral<Entity<K>> } & ReadShape<Fields<K>>>
  >;
}

/** The record exactly as the service sends it: every declared field present, numbers as numbers. */
export const exactSchema = <K extends RecordKind>(kind: K) =>
  z.looseObject({
    id: z.string(),
    entity: z.literal(decl(kind).entity as Entity<K>),
    ...(shapeOf(decl(kind).record!, false) as ExactShape<Fields<K>>),
  });

/** A record of this kind as the service sends it (what the sandbox keeps, its bookkeeping aside). */
export type Served<K extends RecordKind> = z.infer<ReturnType<typeof exactSchema<K>>>;

const cap = <S extends string>(s: S) => (s[0]!.toUpperCase() + s.slice(1)) as Capitalize<S>;

/** The reads of every kind the service `reads`: `listItems` (`GET /items`) and `getItem` (`GET /items/:id`). */
export type ReadEndpoints = [ReadKind] extends [never] ? Record<never, never> : ReadEndpointsOf<ReadKind>;
type ReadEndpointsOf<R extends ReadKind> = {
  [K in R as `list${Capitalize<Path<K>>}`]: {
    method: 'GET';
    path: string;
    query: ReturnType<typeof pageQuery>;
    response: ReturnType<typeof collectionOf<ReturnType<typeof readingSchema<K>>>>;
  };
} & {
  [K in R as `get${Capitalize<Entity<K>>}`]: {
    method: 'GET';
    path: string;
    response: ReturnType<typeof readingSchema<K>>;
  };
};

const pageQuery = () => z.lazy(() => z.object(page()));

export const listEndpointOf = <K extends ReadKind>(kind: K) => `list${cap(decl(kind).path as Path<K>)}` as const;
export const getEndpointOf = <K extends ReadKind>(kind: K) => `get${cap(decl(kind).entity as Entity<K>)}` as const;

export const readKinds = (): ReadKind[] =>
  Object.keys(KINDS).filter((k) => decl(k).reads && decl(k).record) as ReadKind[];

export function readEndpoints(): ReadEndpoints {
  const table: Record<string, unknown> = {};
  for (const kind of readKinds()) {
    const path = `/${decl(kind).path}`;
    const schema = readingSchema(kind);
    table[listEndpointOf(kind)] = { method: 'GET', path, query: pageQuery(), response: collectionOf(schema) };
    table[getEndpointOf(kind)] = { method: 'GET', path: `${path}/:id`, response: schema };
  }
  return table as ReadEndpoints;
}
