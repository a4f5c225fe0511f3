import { measureMemory } from 'node:vm';
import { withoutExperimentalWarning } from '../contract/node-warnings';
import { crossed, paged, pagesOf } from '../contract/pages';
import type { PagedRows } from '../contract/pages';

const EVERY = 10_000;

/**
 * Asks V8 for a full collection now (vm.measureMemory's eager mode starts one; without a V8 flag Node
 * has no other way). An export's buffers (sockets, the zip writer, the file stream) are dead within
 * milliseconds, but some outlive two young collections and are promoted, and V8 times its next full
 * collection by the growth of the JS heap, which hardly grows in an export: 100,000 xlsx rows piled up
 * ~35 MB of dead buffers, a peak 40% above 10,000 rows' (CSV up to 17% on Node 22). One collection
 * every 10,000 rows (~10 ms each) keeps both within a few percent. The V8 flag that does the same
 * (--heap-growing-percent) cost every start of payctl ~10 ms.
 */
async function collectGarbage(): Promise<void> {
  let done: Promise<unknown>;
  try {
    done = withoutExperimentalWarning(/measureMemory is an experimental feature/, () =>
      measureMemory({ execution: 'eager' }),
    );
  } catch {
    return; // only memory is at stake: a Node without it keeps V8's own timing
  }
  await done.catch(() => undefined);
}

/**
 * The rows of a long export, with a full collection once every 10,000 rows, made when the next page
 * is in (an export that ends on the 10,000th row has nothing left to collect for).
 */
export function collecting<T>(
  rows: AsyncIterable<T> | Iterable<T>,
  collect: () => Promise<void> = collectGarbage,
): PagedRows<T> {
  return paged(
    (async function* () {
      let n = 0;
      let due = false;
      for await (const page of pagesOf(rows)) {
        if (due) await collect();
        yield page;
        const before = n;
        n += page.length;
        due = crossed(before, n, EVERY);
      }
    })(),
  );
}
