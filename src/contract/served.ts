import * as z from 'zod/mini';
import { looseInt, responseNotes } from './common';
import { KINDS } from './kinds';
import type { Declared, ReadKind } from './kinds';
import type { FieldTag, KindDeclaration } from './kinds/declare';
import { page } from './requests';
import { collectionOf, resource } from './resources';

/**
 * What derives from a kind whose record is declared in src/contract/kinds (its `record`): the schema
 * payctl reads its records with (tolerant, as every response schema), the schema of the record exactly
 * as the service sends it (the sandbox's records are its z.infer, its answers are checked against it),
 * and, for a kind the service `reads`, its two endpoints: `GET /{path}` and `GET /{path}/:id`.
 */

/** A kind's declaration by name (the literal types are for the types below; these read the values). */
const decl = (kind: string): KindDeclaration => (KINDS as Record<string, KindDeclaration>)[kind]!;

const READING = {
  string: () => z.string(),
  'string?': () => z.nullish(z.string()),
  int: () => looseInt,
  'int?': () => z.nullish(looseInt),
  bool: () => z.boolean(),
  'bool?': () => z.nullish(z.union([z.boolean(), z.number(), z.string()])),
  notes: () => responseNotes,
  json: () => z.optional(z.unknown()),
} satisfies Record<FieldTag, () => z.ZodMiniType>;

const EXACT = {
  string: () => z.string(),
  'string?': () => z.nullable(z.string()),
  int: () => z.int(),
  'int?': () => z.nullable(z.int()),
  bool: () => z.boolean(),
  'bool?': () => z.nullable(z.boolean()),
  notes: () => z.record(z.string(), z.unknown()),
  json: () => z.unknown(),
} satisfies Record<FieldTag, () => z.ZodMiniType>;

type Fields<K extends ReadKind> = Declared[K] extends { record: infer R extends Record<string, FieldTag> } ? R : never;
type Entity<K extends ReadKind> = Declared[K] extends { entity: infer E extends string } ? E : never;
type Path<K extends ReadKind> = Declared[K] extends { path: infer P extends string } ? P : never;
type Shape<K extends ReadKind, T extends Record<FieldTag, () => z.ZodMiniType>> = {
  -readonly [F in keyof Fields<K>]: ReturnType<T[Fields<K>[F]]>;
};

const shapeOf = (kind: ReadKind, table: Record<FieldTag, () => z.ZodMiniType>) =>
  Object.fromEntries(Object.entries(decl(kind).record!).map(([f, tag]) => [f, table[tag]()]));

const readingSchemas = new Map<ReadKind, z.ZodMiniType>();

/** The schema payctl reads these records with (one per kind, so a page's items are checked compiled). */
export function readingSchema<K extends ReadKind>(kind: K) {
  let schema = readingSchemas.get(kind);
  if (!schema) {
    schema = resource(decl(kind).entity!, () => shapeOf(kind, READING));
    readingSchemas.set(kind, schema);
  }
  return schema as z.ZodMiniLazy<
    z.ZodMiniObject<{ id: z.ZodMiniString; entity: z.ZodMiniLiteral<Entity<K>> } & Shape<K, typeof READING>>
  >;
}

/** The record exactly as the service sends it: every declared field present, numbers as numbers. */
export const exactSchema = <K extends ReadKind>(kind: K) =>
  z.looseObject({
    id: z.string(),
    entity: z.literal(decl(kind).entity as Entity<K>),
    ...(shapeOf(kind, EXACT) as Shape<K, typeof EXACT>),
  });

/** A record of this kind as the service sends it (what the sandbox keeps, its bookkeeping aside). */
export type Served<K extends ReadKind> = z.infer<ReturnType<typeof exactSchema<K>>>;

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
