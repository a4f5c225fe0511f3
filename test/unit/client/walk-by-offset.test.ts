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
  it('reads every row once, in order, whatever their times, and stops at a short page', async () => {
    const r = report(250);
    expect(await all(walkByOffset(r.fetchPage))).toEqual(r.rows);
    expect(r.asked).toEqual([
      { count: 100, skip: 0 },
      { count: 100, skip: 100 },
      { count: 100, skip: 200 },
    ]);
  });

  it('asks one page past a full last one, and stops at --limit exactly', async () => {
    const full = report(200);
    expect(await all(walkByOffset(full.fetchPage))).toHaveLength(200);
    expect(full.asked.map((q) => q.skip)).toEqual([0, 100, 200]);
    const limited = report(250);
    expect(await all(walkByOffset(limited.fetchPage, { limit: 120 }))).toEqual(limited.rows.slice(0, 120));
    expect(limited.asked.map((q) => q.skip)).toEqual([0, 100]);
  });
});
