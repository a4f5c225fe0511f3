import { describe, expect, it } from 'vitest';
import { walk } from '../../../src/client/paginate';
import type { PageWindow as PageQuery } from '../../../src/contract/requests';
import { exportProgressLine } from '../../../src/output/export-progress';

/** A fake list endpoint over a mutable array, most recent first like the service. */
function service(initial: number) {
  const rows = Array.from({ length: initial }, (_, i) => ({ id: `r${i}`, created_at: 1000 + i }));
  const queries: PageQuery[] = [];
  const fetchPage = async (q: PageQuery) => {
    queries.push(q);
    const visible = rows
      .filter((r) => (q.from === undefined || r.created_at >= q.from) && (q.to === undefined || r.created_at <= q.to))
      .sort((a, b) => b.created_at - a.created_at);
    return { items: visible.slice(q.skip, q.skip + q.count) };
  };
  return { rows, queries, fetchPage };
}

async function collect(it: AsyncIterable<unknown>) {
  const out: Array<{ id: string }> = [];
  for await (const x of it) out.push(x as { id: string });
  return out;
}

describe('walk', () => {
  it('walks every page 100 at a time', async () => {
    const s = service(250);
    const got = await collect(walk(s.fetchPage));
    expect(got).toHaveLength(250);
    // Each page overlaps the one before by a row; the page at 297 was asked ahead, before the short
    // page at 198 (dropped); a short page is not the end: the page at 249 holds only the overlap row, so it is.
    expect(s.queries.map((q) => q.skip)).toEqual([0, 99, 198, 297, 249]);
  });

  it.each([
    [1, 'row'],
    [150, 'rows'],
  ])(
    'two pages answered out of order around %i new %s: nothing skipped, the later page asked again',
    async (created) => {
      const s = service(500);
      const answered: number[] = [];
      // The second page (asked together with the third) is answered last, after rows were created on top.
      const fetchPage = async (q: PageQuery) => {
        if (s.queries.length === 1) {
          s.queries.push(q);
          await new Promise((r) => setTimeout(r, 20));
          for (let i = 0; i < created; i++) s.rows.push({ id: `new${i}`, created_at: 2000 });
          s.queries.pop();
        }
        answered.push(q.skip);
        return s.fetchPage(q);
      };
      const ids = (await collect(walk(fetchPage, { to: 9999 }))).map((r) => r.id);
      expect(answered.slice(1, 3)).toEqual([198, 99]);
      expect(answered.filter((skip) => skip === 198)).toHaveLength(2);
      expect(ids).toHaveLength(500);
      expect(new Set(ids)).toEqual(new Set(Array.from({ length: 500 }, (_, i) => `r${i}`)));
    },
  );

  it('asks for the first page when the walk is made, before anything reads it', async () => {
    const s = service(50);
    const rows = walk(s.fetchPage);
    expect(s.queries).toEqual([{ count: 100, skip: 0, from: undefined, to: undefined }]);
    expect(await collect(rows)).toHaveLength(50);
    // The short first page is not taken for the end: the page after it, at the last row, says so.
    expect(s.queries.map((q) => q.skip)).toEqual([0, 49]);
  });

  it('stops at --limit', async () => {
    const s = service(250);
    expect(await collect(walk(s.fetchPage, { limit: 120 }))).toHaveLength(120);
    // The second page carries the row it overlaps too.
    expect(s.queries.map((q) => q.count)).toEqual([100, 21]);
  });

  it('pins `to` to the newest item so rows created during the walk stay out and nothing is skipped', async () => {
    const s = service(300);
    let inserted = 0;
    const fetchPage = async (q: PageQuery) => {
      const page = await s.fetchPage(q);
      s.rows.push({ id: `new${inserted}`, created_at: 5000 + inserted++ });
      return page;
    };
    const got = await collect(walk(fetchPage));
    expect(got.map((r) => r.id).sort()).toEqual(Array.from({ length: 300 }, (_, i) => `r${i}`).sort());
    expect(s.queries.slice(1).every((q) => q.to === 1299)).toBe(true);
  });

  it('drops an item that slid onto the next page', async () => {
    const s = service(150);
    let first = true;
    const fetchPage = async (q: PageQuery) => {
      const page = await s.fetchPage(q);
      if (first) {
        first = false;
        s.rows.push({ id: 'same-second', created_at: 1149 });
      }
      return page;
    };
    const got = await collect(walk(fetchPage));
    const ids = got.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 0; i < 150; i++) expect(ids).toContain(`r${i}`);
  });

  it('more than a page created between two pages within the range: nothing duplicated or skipped', async () => {
    const s = service(450);
    let calls = 0;
    const fetchPage = async (q: PageQuery) => {
      const page = await s.fetchPage(q);
      if (calls++ === 1) for (let i = 0; i < 250; i++) s.rows.push({ id: `late${i}`, created_at: 1449 });
      return page;
    };
    const ids = (await collect(walk(fetchPage, { to: 9999 }))).map((r) => r.id);
    expect(ids).toHaveLength(450);
    expect(new Set(ids)).toEqual(new Set(Array.from({ length: 450 }, (_, i) => `r${i}`)));
  });
  const watched = (rows: number) => {
    const s = service(rows);
    let inFlight = 0;
    let most = 0;
    const fetchPage = async (q: PageQuery) => {
      most = Math.max(most, ++inFlight);
      const page = await s.fetchPage(q);
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
      return page;
    };
    return { s, fetchPage, most: () => most };
  };

  it.each([
    // A whole walk: two pages ahead once `to` is pinned by the first page, so the service never waits.
    [undefined, 350, 2, [3, 4, 5, 6]],
    // With a limit each page's size depends on the rows kept: one page ahead, one request at a time.
    [340, 340, 1, [2, 3, 4, 4]],
  ])('limit %s: %i rows, at most %i requests at once', async (limit, total, most, asked) => {
    const w = watched(350);
    const seenAsked: number[] = [];
    const seen: string[] = [];
    for await (const row of walk(w.fetchPage, { limit })) {
      if (seen.length % 100 === 0) seenAsked.push(w.s.queries.length);
      seen.push((row as { id: string }).id);
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect(w.most()).toBe(most);
    // How many pages had been asked for at the first row of each page.
    expect(seenAsked).toEqual(asked);
  });

  it.each([undefined, 340])(
    'a service sending more than asked (limit %s): every row once, none skipped',
    async (limit) => {
      const s = service(350);
      // The second page comes with 3 rows more than asked (the third is asked for already by then).
      const generous = async (q: PageQuery) => s.fetchPage({ ...q, count: q.skip === 100 ? q.count + 3 : q.count });
      const ids = (await collect(walk(generous, { limit }))).map((r) => r.id);
      const want = limit ?? 350;
      expect(ids).toHaveLength(want);
      expect(new Set(ids).size).toBe(want);
      expect(ids).toEqual(Array.from({ length: want }, (_, i) => `r${349 - i}`));
    },
  );

  it('a caller that stops early ends the walk quietly, even if the page asked ahead fails', async () => {
    const s = service(250);
    const fetchPage = async (q: PageQuery) => {
      if (q.skip > 0) throw new Error('second page failed');
      return s.fetchPage(q);
    };
    const got: unknown[] = [];
    for await (const row of walk(fetchPage)) {
      got.push(row);
      if (got.length === 10) break;
    }
    expect(got).toHaveLength(10);
    await expect(collect(walk(fetchPage))).rejects.toThrow('second page failed');
  });
});

describe('walk against a service that does not keep its pages', () => {
  const ids = (n: number) => new Set(Array.from({ length: n }, (_, i) => `r${i}`));

  it.each([50, 37, 99])('pages of at most %i rows when 100 are asked: every row, none twice', async (cap) => {
    const s = service(430);
    const got = (await collect(walk((q) => s.fetchPage({ ...q, count: Math.min(q.count, cap) })))).map((r) => r.id);
    expect(got).toHaveLength(430);
    expect(new Set(got)).toEqual(ids(430));
  });

  it('one short page in the middle (99 of 100) is not the end', async () => {
    const s = service(350);
    const short = async (q: PageQuery) => {
      const page = await s.fetchPage(q);
      return q.skip === 99 ? { items: page.items.slice(0, 99) } : page;
    };
    const got = (await collect(walk(short))).map((r) => r.id);
    expect(new Set(got)).toEqual(ids(350));
    expect(got).toHaveLength(350);
  });

  it('a row inserted between pages below the top (one row twice, the new one unread): a named error', async () => {
    const s = service(300);
    let calls = 0;
    const fetchPage = async (q: PageQuery) => {
      const page = await s.fetchPage(q);
      if (calls++ === 0) s.rows.push({ id: 'backdated', created_at: 1250 });
      return page;
    };
    await expect(collect(walk(fetchPage))).rejects.toThrow(/list changed while it was read: r201 is on two pages/);
  });

  it('a row that vanished between pages (another slid past unread): a named error', async () => {
    const s = service(300);
    let calls = 0;
    const fetchPage = async (q: PageQuery) => {
      const page = await s.fetchPage(q);
      if (calls++ === 0) s.rows.splice(250, 1);
      return page;
    };
    await expect(collect(walk(fetchPage))).rejects.toThrow(
      /list changed while it was read: a page starts on r199, not on r200/,
    );
  });

  it('a service that ignores `to`: the rows past it are left out, every row in range once', async () => {
    const s = service(300);
    const ignoring = (q: PageQuery) => s.fetchPage({ ...q, to: undefined });
    const got = (await collect(walk(ignoring, { to: 1199 }))).map((r) => r.id);
    expect(new Set(got)).toEqual(ids(200));
    expect(got).toHaveLength(200);
  });

  it('a row twice on one page: a named error', async () => {
    const s = service(120);
    const twice = async (q: PageQuery) => {
      const page = await s.fetchPage(q);
      return {
        items: q.skip === 0 ? [...page.items.slice(0, 50), page.items[10], ...page.items.slice(50, 99)] : page.items,
      };
    };
    await expect(collect(walk(twice))).rejects.toThrow(/r109 is on the list twice/);
  });

  it('the last page gone when asked (the list shrank under the walk): a named error', async () => {
    const s = service(150);
    let calls = 0;
    const fetchPage = async (q: PageQuery) => {
      if (calls++ === 1) s.rows.splice(0, 150);
      return s.fetchPage(q);
    };
    await expect(collect(walk(fetchPage))).rejects.toThrow(/the row it had reached \(r50\) is gone/);
  });
});

describe('export progress line', () => {
  it.each([
    [0, 0, 0, 0, '0 rows · 0 pages'],
    [1234, 13, 0, 1, '1,234 rows · 13 pages'],
    [100, 1, 2, 5, '100 rows · 1 page · 2/5 customers'],
  ])('%i rows, %i pages, %i/%i customers', (rows, pages, done, customers, want) =>
    expect(exportProgressLine(rows, pages, done, customers)).toBe(want),
  );
});
