export interface PageQuery {
  count: number;
  skip: number;
  from?: number;
  to?: number;
}

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
 */
export async function* walk(
  fetchPage: (query: PageQuery) => Promise<{ items: unknown[] }>,
  opts: WalkOptions = {},
): AsyncGenerator<unknown> {
  const pageSize = opts.pageSize ?? 100;
  let to = opts.to;
  let skip = opts.skip ?? 0;
  let yielded = 0;
  let oldest = Infinity;
  let seenAtOldest = new Set<unknown>();
  for (let page = 1; ; page++) {
    const want = opts.limit === undefined ? pageSize : Math.min(pageSize, opts.limit - yielded);
    if (want <= 0) return;
    const { items } = await fetchPage({ count: want, skip, from: opts.from, to });
    opts.onPage?.({ page, items: items.length });
    if (to === undefined && items.length > 0 && Number.isFinite(createdAt(items[0]))) to = createdAt(items[0]);
    for (const item of items) {
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
      yield item;
      if (opts.limit !== undefined && ++yielded >= opts.limit) return;
    }
    if (items.length < want) return;
    skip += items.length;
  }
}
