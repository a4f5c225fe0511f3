import * as z from 'zod/mini';
// Named imports: `z.core.…` as a value would bundle the whole core namespace (locales included).
import { $ZodObjectJIT, $constructor } from 'zod/v4/core';
import { looseInt } from './common';

/**
 * zod/mini checks an object key by key; full zod compiles each object shape into one function, which
 * allocates a third less per record. Records come by the hundred per page and by the 100,000 in an
 * export, so they get the compiled kind: zod's own object core inside a mini schema.
 */
type Init = (inst: z.ZodMiniObject, def: z.core.$ZodObjectDef) => void;
const compiledCore: Init = $ZodObjectJIT.init;
const miniType: Init = z.ZodMiniType.init;
const CompiledObject = $constructor('PayctlCompiledObject', (inst: z.ZodMiniObject, def: z.core.$ZodObjectDef) => {
  compiledCore(inst, def);
  miniType(inst, def);
});

/** The compiled form of each resource, used for the items of a page (see `collectionOf`). */
const compiledForm = new WeakMap<z.ZodMiniType, z.ZodMiniType>();

/**
 * Response schemas are tolerant on purpose: real payloads carry many more fields than the spec lists,
 * omit some it does list, and use null, `[]` and numeric strings freely (see fixtures/real/SOURCES.md).
 * They check only that the record is the resource we asked for; unknown keys are kept. Built on first
 * use; a lone record is checked key by key, as compiling its checker would cost a single call more
 * than it saves.
 */
export function resource<E extends string, S extends z.core.$ZodLooseShape>(entity: E, fields: () => S) {
  const shape = () => ({ id: z.string(), entity: z.literal(entity), ...fields() });
  const one = z.lazy(() => z.looseObject(shape()));
  compiledForm.set(
    one,
    z.lazy(() => new CompiledObject({ type: 'object', shape: shape(), catchall: z.unknown() })),
  );
  return one;
}

/** `count` is the number of items in this page; real payloads sometimes disagree with `items.length`. */
export const collectionOf = <T extends z.ZodMiniType>(item: T) =>
  z.looseObject({
    entity: z.literal('collection'),
    count: looseInt,
    items: z.array((compiledForm.get(item) as T | undefined) ?? item),
  });
