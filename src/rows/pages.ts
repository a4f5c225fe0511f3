/** Where a list's rows keep their pages (see `paged`). */
const PAGES = Symbol('pages');

/**
 * A list's rows that also come page by page. Exports work a page at a time: handing 20,000 rows one
 * by one through the five or six async generators between the service and the file (walk, filter,
 * tagging, progress, collection) cost more than formatting them, and made most of the garbage.
 * Anything that reads it row by row still can.
 */
export interface PagedRows<T = unknown> extends AsyncIterable<T> {
  readonly [PAGES]: AsyncIterable<T[]>;
}

/** Rows from pages (read once: the pages or the rows, not both). */
export function paged<T>(pages: AsyncIterable<T[]>): PagedRows<T> {
  return {
    [PAGES]: pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages) yield* page;
    },
  };
}

/** Pages of any rows: its own pages, an array (or other in-memory list) as one, else one row a page. */
export async function* pagesOf<T>(rows: AsyncIterable<T> | Iterable<T>): AsyncGenerator<T[]> {
  if (PAGES in rows) yield* (rows as PagedRows<T>)[PAGES];
  else if (Symbol.iterator in rows) yield Array.isArray(rows) ? rows : [...rows];
  else for await (const row of rows) yield [row];
}

/** Each page through `f` (which may drop rows, or all of them: an empty page is not passed on). */
export function mapPages<T, U>(rows: AsyncIterable<T> | Iterable<T>, f: (page: T[]) => U[]): PagedRows<U> {
  return paged(
    (async function* () {
      for await (const page of pagesOf(rows)) {
        const out = f(page);
        if (out.length) yield out;
      }
    })(),
  );
}

/** Whether a count going from `before` to `after` passed a multiple of `every` (work due every N rows). */
export const crossed = (before: number, after: number, every: number): boolean =>
  Math.floor(after / every) > Math.floor(before / every);
