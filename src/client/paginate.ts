import { FindingError } from '../contract/errors';
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
const shown = (id: unknown) => (typeof id === 'string' ? id : JSON.stringify(id));

interface Asked {
  count: number;
  at: number;
  promise: Promise<{ items: unknown[] }>;
}

/** What a page says of the list, against the rows the walk has passed. */
type Verdict =
  { kind: 'ok' | 'pushed'; from: number } | { kind: 'gap'; why: string } | { kind: 'repeat'; id: unknown; why: string };

const changed = (why: string) =>
  new FindingError(
    `the service's list changed while it was read: ${why}; rows may be missing, so nothing is given as the whole list`,
    'run it again; if it keeps happening, the service is not keeping its list in order (a --to already past helps)',
  );

/**
 * Walks every page (most recent first): its rows, page by page as they arrive. The first page is asked for
 * at once, when the walk is made, so the service works while the caller gets ready to write.
 * Without a caller's `to`, the walk pins it to the newest item of the first page, using the service's own
 * clock (the sandbox's may run ahead of ours), so items created during a long export do not join it.
 *
 * Every page after the first starts on the last row of the page before (they overlap by one), so the walk
 * sees whether the list moved between two pages. It trusts nothing else of the service's pages:
 * - a short page is not the end: the next page is asked from where it stopped; the walk ends only on a
 *   page that brings no row it has not seen (the overlap row alone, or nothing);
 * - rows pushed down onto the next page are passed over only when the top of the list shows rows newer
 *   than any the walk read (created meanwhile, left for the next run); a row on two pages otherwise, or
 *   twice on one, is a FindingError naming it;
 * - a page that does not start on the row it overlaps (a row before it vanished, so rows slid past the
 *   walk unread) is asked once more (two pages asked at once may be answered in either order), then is a
 *   FindingError.
 * While the caller works through a page, the next ones are already asked for: two pages ahead when every
 * page is wanted, one when a limit makes each page's size depend on the rows kept. Pages asked ahead
 * assume full pages; a page of another size drops them and asks again from where it ended.
 */
export function walk(
  fetchPage: (query: PageWindow) => Promise<{ items: unknown[] }>,
  opts: WalkOptions = {},
): PagedRows {
  const pageSize = opts.pageSize ?? 100;
  const start = opts.skip ?? 0;
  let to = opts.to;
  let counted = 0;
  let oldest = Infinity;
  let seenAtOldest = new Set<unknown>();
  /** The oldest row passed: the next page starts on it. */
  let frontier: { id: unknown } | undefined;
  /** The newest second of the first page and its ids: rows newer than those are the ones created meanwhile. */
  let top = -Infinity;
  const atTop = new Set<unknown>();
  const left = () => (opts.limit === undefined ? Infinity : opts.limit - counted);
  // After the first page each page carries the overlap row too.
  const wanted = (overlap: boolean) => Math.max(overlap ? 2 : 1, Math.min(pageSize, left() + (overlap ? 1 : 0)));
  const ahead = opts.limit === undefined ? (opts.ahead ?? 2) : 1;
  const queue: Asked[] = [];
  let next = start;
  const get = (count: number, at: number) => fetchPage({ count, skip: at, from: opts.from, to });
  const ask = (count: number) => {
    const promise = get(count, next);
    // Asked ahead: a failure before it is awaited, or a page never awaited, is no unhandled rejection.
    promise.catch(() => undefined);
    queue.push({ count, at: next, promise });
    next += count - 1;
  };
  const inRange = (items: unknown[]) => (to === undefined ? items : items.filter((r) => !(createdAt(r) > to!)));
  const isNew = (item: unknown) => {
    const at = createdAt(item);
    if (to !== undefined && at > to) return false;
    return !Number.isFinite(at) || at < oldest || (at === oldest && !seenAtOldest.has(idOf(item)));
  };
  const pass = (item: unknown) => {
    const at = createdAt(item);
    if (Number.isFinite(at)) {
      if (at < oldest) {
        oldest = at;
        seenAtOldest = new Set();
      }
      seenAtOldest.add(idOf(item));
    }
    frontier = { id: idOf(item) };
  };

  const judge = (items: unknown[]): Verdict => {
    let from = 0;
    if (frontier) {
      if (!items.length) return { kind: 'gap', why: `the row it had reached (${shown(frontier.id)}) is gone` };
      const j = items.findIndex((item) => isNew(item) && idOf(item) !== frontier!.id);
      from = j === -1 ? items.length : j;
      if (from === 0)
        return { kind: 'gap', why: `a page starts on ${shown(idOf(items[0]))}, not on ${shown(frontier.id)}` };
      if (idOf(items[from - 1]) !== frontier.id && j !== -1)
        return {
          kind: 'gap',
          why: `${shown(idOf(items[j]))} follows ${shown(idOf(items[j - 1]))}, not ${shown(frontier.id)}`,
        };
    }
    const fresh = new Set<unknown>();
    for (const item of items.slice(from)) {
      const id = idOf(item);
      if (fresh.has(id) || !isNew(item)) return { kind: 'repeat', id, why: `${shown(id)} is on the list twice` };
      fresh.add(id);
    }
    const onIt = from === 1 && idOf(items[0]) === frontier?.id;
    return { kind: frontier && !onIt ? 'pushed' : 'ok', from };
  };

  /**
   * Rows pushed down by `k` are only rows newer than the walk's first, on top of the list (among the rows of
   * its newest second, which the service may order as it likes).
   */
  const newOnTop = async (k: number) => {
    const { items } = await get(Math.min(k + atTop.size, pageSize), start);
    const created = items.filter((r) => createdAt(r) > top || (createdAt(r) === top && !atTop.has(idOf(r))));
    return created.length >= Math.min(k, pageSize - atTop.size);
  };

  if (left() > 0) ask(wanted(false));
  return paged(
    (async function* () {
      for (let page = 1; queue.length > 0; page++) {
        const asked = queue.shift()!;
        // Rows past `to` (a service that ignores it) are not the list's: judged and kept without them.
        let raw = (await asked.promise).items;
        let items = inRange(raw);
        let verdict = judge(items);
        let again = false;
        if (verdict.kind === 'gap' || verdict.kind === 'repeat') {
          raw = (await get(asked.count, asked.at)).items;
          items = inRange(raw);
          verdict = judge(items);
          again = true;
        }
        if (verdict.kind === 'gap') throw changed(verdict.why);
        if (verdict.kind === 'pushed' && !(await newOnTop(verdict.from - 1 || items.length)))
          verdict = { kind: 'repeat', id: idOf(items[0]), why: `${shown(idOf(items[0]))} is on two pages` };
        if (verdict.kind === 'repeat') throw changed(verdict.why);
        opts.onPage?.({ page, items: raw.length });
        if (page === 1 && items.length) {
          top = createdAt(items[0]);
          for (const r of items) if (createdAt(r) === top) atTop.add(idOf(r));
          if (to === undefined && Number.isFinite(top)) to = top;
        }
        const fresh = items.slice(verdict.from, verdict.from + Math.max(0, left()));
        for (const item of fresh) pass(item);
        counted += fresh.length;
        // A short page may not be the end: the walk ends on a page with nothing beyond the rows it passed.
        const beyond = items.length - verdict.from;
        if (left() <= 0 || !raw.length || (page > 1 && beyond === 0 && raw.length < asked.count)) {
          queue.length = 0;
        } else {
          // A page of another size than asked (or asked twice) leaves the pages asked ahead at the wrong offsets;
          // after a short one, only the page that shows whether more exist is asked.
          if (raw.length !== asked.count || again) {
            queue.length = 0;
            next = asked.at + raw.length - 1;
          }
          while (queue.length < (raw.length < asked.count ? 1 : ahead)) ask(wanted(true));
        }
        if (fresh.length) yield fresh;
      }
    })(),
  );
}

/** A report row's identity: the report has no `id`, so its settlement, type and entity. */
const rowKey = (r: unknown) => {
  const o = (r ?? {}) as Record<string, unknown>;
  return `${String(o.settlement_id ?? '')}/${String(o.type ?? '')}/${String(o.entity_id ?? o.id ?? '')}`;
};

/**
 * Walks a list whose rows are not records newest first (the combined settlement report: no `id`, rows in
 * settlement order): page after page by offset. Such a list only grows at its end, so each page after
 * the first starts on the last row of the page before (they overlap by one) and must: a page that starts
 * elsewhere, or a row seen twice, is a FindingError. A short page is not the end; a page with no row
 * beyond the overlap is.
 */
export function walkByOffset(
  fetchPage: (query: { count: number; skip: number }) => Promise<{ items: unknown[] }>,
  opts: { limit?: number; pageSize?: number } = {},
): PagedRows {
  const pageSize = opts.pageSize ?? 100;
  return paged(
    (async function* () {
      const seen = new Set<string>();
      let last: string | undefined;
      let counted = 0;
      for (let skip = 0; opts.limit === undefined || counted < opts.limit;) {
        const { items } = await fetchPage({ count: pageSize, skip });
        if (last !== undefined) {
          if (!items.length) throw changed(`the report ended before the row it had reached (${last})`);
          if (rowKey(items[0]) !== last)
            throw changed(`a page of the report starts on ${rowKey(items[0])}, not on ${last}`);
        }
        const rows = last === undefined ? items : items.slice(1);
        for (const r of rows) {
          const key = rowKey(r);
          if (seen.has(key)) throw changed(`the row ${key} is in the report twice`);
          seen.add(key);
        }
        const kept = opts.limit === undefined ? rows : rows.slice(0, opts.limit - counted);
        counted += kept.length;
        if (kept.length) yield kept;
        if (!rows.length) return;
        last = rowKey(items[items.length - 1]);
        skip += items.length - 1;
      }
    })(),
  );
}
