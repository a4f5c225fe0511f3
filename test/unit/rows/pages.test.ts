import { describe, expect, it } from 'vitest';
import { mapPages, paged, pagesOf } from '../../../src/rows/pages';

async function* gen<T>(pages: T[][]) {
  for (const p of pages) yield p;
}
const all = async <T>(it: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

describe('rows in pages', () => {
  it.each([
    ['paged rows give their own pages', () => paged(gen([[1, 2], [3]])), [[1, 2], [3]]],
    ['an array is one page', () => [1, 2, 3], [[1, 2, 3]]],
    [
      'rows without pages come one a page',
      () =>
        (async function* () {
          yield* [1, 2];
        })(),
      [[1], [2]],
    ],
  ])('%s', async (_, rows, want) => expect(await all(pagesOf(rows()))).toEqual(want));

  it('paged rows read row by row are the rows in order', async () => {
    expect(await all(paged(gen([[1, 2], [], [3]])))).toEqual([1, 2, 3]);
  });

  it('mapPages passes each page through and drops the ones left empty', async () => {
    const odd = mapPages(paged(gen([[1, 2], [4], [5]])), (p) => p.filter((n) => n % 2));
    expect(await all(pagesOf(odd))).toEqual([[1], [5]]);
  });

  it('a reader that stops early ends the pages it read (their finally runs)', async () => {
    let ended = false;
    const source = paged(
      (async function* () {
        try {
          yield [1, 2];
          yield [3];
        } finally {
          ended = true;
        }
      })(),
    );
    for await (const row of source) if (row === 1) break;
    expect(ended).toBe(true);
  });
});
