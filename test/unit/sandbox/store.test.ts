import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../../src/sandbox/store';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function twoProcessesOneFile(): [Store, Store] {
  const dir = mkdtempSync(join(tmpdir(), 'payctl-store-'));
  dirs.push(dir);
  const file = join(dir, 'sandbox.db');
  return [new Store(file), new Store(file)];
}

const order = (n: number) => ({ id: `order_${n}`, entity: 'order', amount: n, created_at: 1_700_000_000 + n });
const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

describe('sandbox list paging', () => {
  it('pages read on from where the last one stopped and still answer as offset paging does', () => {
    const [a] = twoProcessesOneFile();
    for (let n = 1; n <= 6; n++) a.insert(order(n));
    expect(ids(a.list('order', { count: 2, skip: 0 }))).toEqual(['order_6', 'order_5']);
    expect(ids(a.list('order', { count: 2, skip: 2 }))).toEqual(['order_4', 'order_3']);
    a.insert(order(7)); // everything shifts down by one, as on the real service
    expect(ids(a.list('order', { count: 2, skip: 4 }))).toEqual(['order_3', 'order_2']);
  });

  it('a write by another process on the same database file is seen by the next page', () => {
    const [a, b] = twoProcessesOneFile();
    for (let n = 1; n <= 6; n++) a.insert(order(n));
    expect(ids(a.list('order', { count: 2, skip: 0 }))).toEqual(['order_6', 'order_5']);
    b.insert(order(7));
    expect(ids(a.list('order', { count: 2, skip: 2 }))).toEqual(['order_5', 'order_4']);
  });
});
