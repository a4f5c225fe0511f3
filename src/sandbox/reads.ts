import type * as z from 'zod/mini';
import type { ReadKind } from '../contract/kinds';
import { getEndpointOf, listEndpointOf, readKinds } from '../contract/served';
import type { ReadEndpoints, Served, readingSchema } from '../contract/served';
import type { EndpointName } from '../contract/endpoints';
import type { RouteContext, RouteHandler } from './context';
import { notFound } from './errors';
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
