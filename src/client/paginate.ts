import type { PageWindow } from '../contract/requests';

interface WalkOptions {
  from?: number;
  to?: number;
  limit?: number;
  /** Items to pass over first (the service's own offset). */
  skip?: number;
  pageSize?: number;
  onPage?: (info: { page: number; items: number }) => void;
}

const idOf = (item: unknown) => (item as { id?: unknown } | null)?.id;
const createdAt = (item: unknown) => Number((item as { created_at?: unknown } | null)?.created_at);

/**
 * Walks every page (most recent first) and yields items as pages arrive.
 * Without a caller's `to`, the walk pins it to the newest item it saw first, using the service's own
 * clock (the sandbox's may run ahead of ours), so items created during a long export do not join it.
 * Pages are offset-based, so items created meanwhile push older ones down onto the next page: anything
 * newer than the oldest item yielded so far has been seen already (or is new) and is dropped, and at
 * that oldest second only the ids yielded are remembered, so memory stays flat however long the walk.
 * Once the first page is in, the next one is asked for while the caller works through the current one
 * (the service and the caller's writing overlap); never more than one page ahead, one request at a time.
 */
export async function* walk(
  fetchPage: (query: PageWindow) => Promise<{ items: unknown[] }>,
  opts: WalkOptions = {},
): AsyncGenerator<unknown> {
  const pageSize = opts.pageSize ?? 100;
  let to = opts.to;
  let skip = opts.skip ?? 0;
  let counted = 0;
  let oldest = Infinity;
  let seenAtOldest = new Set<unknown>();
  const wanted = () => (opts.limit === undefined ? pageSize : Math.min(pageSize, opts.limit - counted));
  const ask = (count: number) => {
    const promise = fetchPage({ count, skip, from: opts.from, to });
    // Asked ahead while the caller still writes the last page: if it fails before it is awaited, that
    // is not an unhandled rejection (which would end the process with a stack trace); the await below
    // still sees the failure.
    promise.catch(() => undefined);
    return { count, promise };
  };
  let next: { count: number; promise: Promise<{ items: unknown[] }> } | undefined =
    wanted() > 0 ? ask(wanted()) : undefined;
  try {
    for (let page = 1; next; page++) {
      const want = next.count;
      const { items } = await next.promise;
      next = undefined;
      opts.onPage?.({ page, items: items.length });
      if (to === undefined && items.length > 0 && Number.isFinite(createdAt(items[0]))) to = createdAt(items[0]);
      // The page is sifted whole first, so the count for the next request is known before any item is yielded.
      const kept: unknown[] = [];
      for (const item of items) {
        if (opts.limit !== undefined && counted >= opts.limit) break;
        const id = idOf(item);
        const at = createdAt(item);
        if (to !== undefined && at > to) continue;
        if (Number.isFinite(at)) {
          if (at > oldest || (at === oldest && seenAtOldest.has(id))) continue;
          if (at < oldest) {
            oldest = at;
            seenAtOldest = new Set();
          }
          seenAtOldest.add(id);
        }
        kept.push(item);
        counted++;
      }
      skip += items.length;
      if (items.length >= want && wanted() > 0) next = ask(wanted());
      yield* kept;
    }
  } finally {
    // A caller that stops early leaves the page asked ahead unread: its failure is nobody's concern.
    next?.promise.catch(() => undefined);
  }
}
