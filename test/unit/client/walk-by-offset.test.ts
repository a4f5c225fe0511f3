import { describe, expect, it } from 'vitest';
import { walkByOffset } from '../../../src/client/paginate';
import { pagesOf } from '../../../src/rows/pages';

/** A report of `n` rows without ids, some sharing a time, answered a page at a time; the pages asked for. */
function report(n: number) {
  const rows = Array.from({ length: n }, (_, i) => ({ entity_id: `row${i}`, created_at: 1000 + (i % 3) }));
  const asked: Array<{ count: number; skip: number }> = [];
  const fetchPage = async (q: { count: number; skip: number }) => {
    asked.push(q);
    return { items: rows.slice(q.skip, q.skip + q.count) };
  };
  return { rows, asked, fetchPage };
}

async function all(pages: AsyncIterable<unknown>) {
  const out: unknown[] = [];
  for await (const page of pagesOf(pages)) out.push(...page);
  return out;
}

describe('walking a report by offset', () => {
  it('reads every row once, in order, whatever their times; a short page is not the end, the page after it is', async () => {
    const r = report(250);
    expect(await all(walkByOffset(r.fetchPage))).toEqual(r.rows);
    // Each page starts on the last row of the page before.
    expect(r.asked).toEqual([
      { count: 100, skip: 0 },
      { count: 100, skip: 99 },
      { count: 100, skip: 198 },
      { count: 100, skip: 249 },
    ]);
  });

  it('pages shorter than asked: every row once', async () => {
    const r = report(250);
    const short = (q: { count: number; skip: number }) => r.fetchPage({ ...q, count: 30 });
    expect(await all(walkByOffset(short))).toEqual(r.rows);
  });

  it('a row inserted between pages (one row twice, another unread): a named error', async () => {
    const r = report(250);
    const moving = async (q: { count: number; skip: number }) => {
      const page = await r.fetchPage(q);
      if (q.skip === 0) r.rows.splice(10, 0, { entity_id: 'inserted', created_at: 1000 });
      return page;
    };
    await expect(all(walkByOffset(moving))).rejects.toThrow(/starts on \/\/row98, not on \/\/row99/);
  });

  it('a row twice in the report: a named error', async () => {
    const r = report(150);
    r.rows[120] = r.rows[3]!;
    await expect(all(walkByOffset(r.fetchPage))).rejects.toThrow(/the row \/\/row3 is in the report twice/);
  });

  it('asks one page past a full last one, and stops at --limit exactly', async () => {
    const full = report(200);
    expect(await all(walkByOffset(full.fetchPage))).toHaveLength(200);
    expect(full.asked.map((q) => q.skip)).toEqual([0, 99, 198, 199]);
    const limited = report(250);
    expect(await all(walkByOffset(limited.fetchPage, { limit: 120 }))).toEqual(limited.rows.slice(0, 120));
    expect(limited.asked.map((q) => q.skip)).toEqual([0, 99]);
  });
});
