import type * as z from 'zod/mini';
import type { IdKind, ReadKind } from '../contract/kinds';
import { getEndpointOf, listEndpointOf, readKinds } from '../contract/served';
import type { ReadEndpoints, Served, readingSchema } from '../contract/served';
import type { EndpointName } from '../contract/endpoints';
import type { RouteContext, RouteHandler } from './context';
import { notFound } from './errors';
import { recordId } from './ids';
import { items } from './samples/items';
import type { Store } from './store';
import type { Entity } from './records';
import { collection, pageWindow, publicView } from './views';

type ReadRoutes = [ReadKind] extends [never]
  ? Record<never, never>
  : { [E in keyof ReadEndpoints & EndpointName]: RouteHandler<E> };

/**
 * The handlers below answer each kind's records as stored: a record as the sandbox keeps it (the exact
 * schema's z.infer) must be one the contract's reading schema takes, or the name of its kind fails
 * typecheck here.
 */
type Unread = {
  [K in ReadKind]: Served<K> extends z.output<ReturnType<typeof readingSchema<K>>> ? never : K;
}[ReadKind];
export const UNREAD_KINDS: [Unread] extends [never] ? [] : [Unread] = [];

/**
 * The sandbox's answers to the reads of every kind declared whole in src/contract/kinds (`reads`): a page
 * of its records newest first, and one record by id, as the service answers them. Its records are seeded.
 */
export function readRoutes(): ReadRoutes {
  const table: Record<string, (ctx: RouteContext) => unknown> = {};
  for (const kind of readKinds()) {
    const entity = kind as Entity;
    table[listEndpointOf(kind)] = ({ store, query }) =>
      collection(store.list(entity, pageWindow(query as Parameters<typeof pageWindow>[0])));
    table[getEndpointOf(kind)] = ({ store, params }) => {
      const record = store.get(entity, params.id!);
      if (!record) throw notFound();
      return publicView(record);
    };
  }
  return table as unknown as ReadRoutes;
}

/** A few records of each kind the service reads, as `sandbox seed` makes them (created_at from `now`). */
type Samples = { [K in ReadKind]: (now: number) => Array<Omit<Served<K>, 'id' | 'entity'>> };

/** One line per kind declared with `reads`: its sample records (a missing kind fails typecheck). */
const SAMPLES: Samples = { item: items };

export function seedReads(store: Store, now: number): void {
  for (const kind of readKinds()) {
    const entity = kind as Entity;
    const make = (SAMPLES as Record<string, (now: number) => object[]>)[kind]!;
    for (const sample of make(now)) store.insert({ id: recordId(kind as IdKind), entity, created_at: now, ...sample });
  }
}
