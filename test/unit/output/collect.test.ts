import { describe, expect, it } from 'vitest';
import { paged, pagesOf } from '../../../src/contract/pages';
import { collecting } from '../../../src/output/collect';

describe('collections during a long export', () => {
  it.each([
    // rows per page, pages, collections made (once per 10,000 rows, when the next page is in)
    [5000, 4, 1], // 20,000 rows: the one due at the last row is never made
    [3000, 8, 2], // 24,000 rows: due after 12,000 and 21,000, each made when the next page is in
    [100, 99, 0],
    [100, 101, 1],
  ])('%i rows a page, %i pages: %i collections', async (size, count, want) => {
    let made = 0;
    const seen: number[] = [];
    const source = paged(
      (async function* () {
        for (let p = 0; p < count; p++) yield Array.from({ length: size }, (_, i) => p * size + i);
      })(),
    );
    for await (const page of pagesOf(
      collecting(source, async () => {
        made++;
      }),
    ))
      seen.push(page.length);
    expect(made).toBe(want);
    expect(seen).toEqual(Array(count).fill(size));
  });
});
