import { paged } from '../rows/pages';
import type { PagedRows } from '../rows/pages';
import type { PageWindow } from '../contract/requests';

interface WalkOptions {
  from?: number;
  to?: number;
  limit?: number;
  /** Items to pass over first (the service's own offset). */
  skip?: number;
  pageSize?: number;
  /**
   * Pages asked for ahead of the one being read when no limit is set: 2 by default, 1 for a walk
   * likely to stop early (a filter that needs only a page of rows).
   */
  ahead?: 1 | 2;
  onPage?: (info: { page: number; items: number }) => void;
}

const idOf = (item: unknown) => (item as { id?: unknown } | null)?.id;
const createdAt = (item: unknown) => Number((item as { created_at?: unknown } | null)?.created_at);

interface Asked {
  count: number;
  /** The offset it was asked at, and whether it overlaps the page asked before it by a row. */
  at: number;
  overlaps: boolean;
  promise: Promise<{ items: unknown[] }>;
}

/**
 * Walks every page (most recent first): its rows, page by page as they arrive. The first page is asked for
 * at once, when the walk is made, so the service works while the caller gets ready to write.
 * Without a caller's `to`, the walk pins it to the newest item it saw first, using the service's own
 * clock (the sandbox's may run ahead of ours), so items created during a long export do not join it.
 * Pages are offset-based, so items created meanwhile push older ones down onto the next page: anything
 * newer than the oldest item yielded so far has been seen already (or is new) and is dropped, and at
 * that oldest second only the ids yielded are remembered, so memory stays flat however long the walk.
 * While the caller works through a page, the next ones are already asked for: two pages ahead when
 * every page is wanted (each page asked for while the service is still answering the one before, so
 * it never waits for the caller), one when a limit makes each page's size depend on the rows kept.
 * A page asked ahead past the end comes back empty and is dropped.
 * Two pages asked at once can be answered in either order, and a row created between the two answers
 * pushes the earlier page down while the later one was read before it: the row between them is on
 * neither. So pages asked ahead overlap the page before by one row, whose first row must then be one
 * the walk has already passed (or a newer one); a page that starts on a row the walk would keep is
 * asked for again, now that the page before it is answered, and that answer starts where it should.
 */
export function walk(
  fetchPage: (query: PageWindow) => Promise<{ items: unknown[] }>,
  opts: WalkOptions = {},
): PagedRows {
  const pageSize = opts.pageSize ?? 100;
  let to = opts.to;
  /** The offset of the next page to ask for (pages asked ahead are assumed full). */
  let skip = opts.skip ?? 0;
  let counted = 0;
  let oldest = Infinity;
  let seenAtOldest = new Set<unknown>();
  const wanted = () => (opts.limit === undefined ? pageSize : Math.min(pageSize, opts.limit - counted));
  const queue: Asked[] = [];
  // Only a whole walk has two requests out at once (one ahead asks for the next page once the last is in).
  const ahead = opts.limit === undefined ? (opts.ahead ?? 2) : 1;
  const ask = (count: number) => {
    const promise = fetchPage({ count, skip, from: opts.from, to });
    queue.push({ count, at: skip, overlaps: ahead > 1 && skip > (opts.skip ?? 0), promise });
    skip += ahead > 1 && count > 1 ? count - 1 : count;
    // Asked ahead while the caller still writes the last page: if it fails before it is awaited, or is
    // never awaited (the caller stopped early, or the walk ended), that is not an unhandled rejection
    // (which would end the process with a stack trace); the await below still sees the failure.
    promise.catch(() => undefined);
  };
  if (wanted() > 0) ask(wanted());
  /** Whether the walk keeps `item`: within `to`, and neither passed already nor newer than what it passed. */
  const isNew = (item: unknown) => {
    const at = createdAt(item);
    if (to !== undefined && at > to) return false;
    return !Number.isFinite(at) || at < oldest || (at === oldest && !seenAtOldest.has(idOf(item)));
  };

  return paged(
    (async function* () {
      for (let page = 1; queue.length > 0; page++) {
        const { count: want, at: offset, overlaps, promise } = queue.shift()!;
        let { items } = await promise;
        if (overlaps && items.length > 0 && isNew(items[0]))
          ({ items } = await fetchPage({ count: want, skip: offset, from: opts.from, to }));
        opts.onPage?.({ page, items: items.length });
        if (to === undefined && items.length > 0 && Number.isFinite(createdAt(items[0]))) to = createdAt(items[0]);
        // The page is sifted whole first, so the count for the next request is known before any item is yielded.
        const kept: unknown[] = [];
        for (const item of items) {
          if (opts.limit !== undefined && counted >= opts.limit) break;
          if (!isNew(item)) continue;
          const at = createdAt(item);
          if (Number.isFinite(at)) {
            if (at < oldest) {
              oldest = at;
              seenAtOldest = new Set();
            }
            seenAtOldest.add(idOf(item));
          }
          kept.push(item);
          counted++;
        }
        if (items.length < want || wanted() <= 0) {
          queue.length = 0; // the end (or the limit): pages asked ahead have nothing the walk wants
        } else {
          // A service that sent more than asked moves the offset on by what it sent, unless a page was
          // asked ahead from the old offset: moving past it would skip rows; overlapping is sifted out.
          if (queue.length === 0) skip += items.length - want;
          while (queue.length < ahead) ask(wanted());
        }
        if (kept.length) yield kept;
      }
    })(),
  );
}

/**
 * Walks a list whose rows are not records newest first (the combined settlement report: no `id`, rows in
 * settlement order): page after page by offset alone, until a short page. Such a list only grows at its
 * end, so offsets stay put while it is walked.
 */
export function walkByOffset(
  fetchPage: (query: { count: number; skip: number }) => Promise<{ items: unknown[] }>,
  opts: { limit?: number; pageSize?: number } = {},
): PagedRows {
  const pageSize = opts.pageSize ?? 100;
  return paged(
    (async function* () {
      let counted = 0;
      for (let skip = 0; opts.limit === undefined || counted < opts.limit; skip += pageSize) {
        const { items } = await fetchPage({ count: pageSize, skip });
        const kept = opts.limit === undefined ? items : items.slice(0, opts.limit - counted);
        counted += kept.length;
        if (kept.length) yield kept;
        if (items.length < pageSize) return;
      }
    })(),
  );
}
