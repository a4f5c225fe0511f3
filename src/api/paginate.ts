export interface PageQuery {
  count: number;
  skip: number;
  from?: number;
  to?: number;
}

export interface WalkOptions {
  from?: number;
  to?: number;
  limit?: number;
  pageSize?: number;
  onPage?: (info: { page: number; items: number }) => void;
}

const idOf = (item: unknown) => (item as { id?: unknown } | null)?.id;
const createdAt = (item: unknown) => Number((item as { created_at?: unknown } | null)?.created_at);

/**
 * Walks every page (most recent first) and yields items as pages arrive.
 * Without a caller's `to`, the walk pins it to the newest item it saw first, using the service's own
 * clock (the sandbox's may run ahead of ours), so items created during a long export do not join it.
 * Items that slide onto the next page are dropped by id; only the last two pages' ids are kept, so
 * memory stays flat however long the walk.
 */
export async function* walk(
  fetchPage: (query: PageQuery) => Promise<{ items: unknown[] }>,
  opts: WalkOptions = {},
): AsyncGenerator<unknown> {
  const pageSize = opts.pageSize ?? 100;
  let to = opts.to;
  let skip = 0;
  let yielded = 0;
  let previous = new Set<unknown>();
  for (let page = 1; ; page++) {
    const want = opts.limit === undefined ? pageSize : Math.min(pageSize, opts.limit - yielded);
    if (want <= 0) return;
    const { items } = await fetchPage({ count: want, skip, from: opts.from, to });
    opts.onPage?.({ page, items: items.length });
    if (to === undefined && items.length > 0 && Number.isFinite(createdAt(items[0]))) to = createdAt(items[0]);
    const current = new Set<unknown>();
    for (const item of items) {
      const id = idOf(item);
      if (id !== undefined && (previous.has(id) || current.has(id))) continue;
      if (to !== undefined && createdAt(item) > to) continue;
      current.add(id);
      yield item;
      if (opts.limit !== undefined && ++yielded >= opts.limit) return;
    }
    if (items.length < want) return;
    skip += items.length;
    previous = current;
  }
}
