import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dueWork } from '../../../src/sandbox/due-work';
import { createOrder } from '../../../src/sandbox/orders';
import { newPayment } from '../../../src/sandbox/payments';
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

  it.each<[string, { from?: number; to?: number }]>([
    ['the whole list', {}],
    ['from and to', { from: 1_700_000_040, to: 1_700_000_170 }],
    ['only to', { to: 1_700_000_111 }],
  ])("walked page by page, a parent's rows with %s are exactly what offset paging gives", (_, range) => {
    const [a] = twoProcessesOneFile();
    // Three parents interleaved, two rows a second (ties on created_at are broken by insertion order).
    const rows = Array.from({ length: 600 }, (_, n) => ({
      id: `txn_${n}`,
      entity: 'customer_transaction',
      parent: `cust_${n % 3}`,
      amount: n,
      created_at: 1_700_000_000 + Math.floor(n / 2),
    }));
    for (const r of rows) a.insert(r, { parent: r.parent });
    const want = rows
      .map((r, seq) => ({ ...r, seq }))
      .filter((r) => r.parent === 'cust_1')
      .filter((r) => r.created_at >= (range.from ?? 0) && r.created_at <= (range.to ?? Infinity))
      .sort((x, y) => y.created_at - x.created_at || y.seq - x.seq)
      .map((r) => r.id);
    const got: string[] = [];
    for (let skip = 0; ; skip += 7) {
      const page = a.list('customer_transaction', { count: 7, skip, ...range, parent: 'cust_1' });
      got.push(...ids(page));
      if (page.length < 7) break;
    }
    expect(got).toEqual(want);
    // As payctl walks: each page from the last row of the one before (the cursor one row back).
    const overlapped: string[] = [];
    for (let skip = 0; ; skip += 6) {
      const page = a.list('customer_transaction', { count: 7, skip, ...range, parent: 'cust_1' });
      overlapped.push(...ids(page).slice(skip === 0 ? 0 : 1));
      if (page.length < 7) break;
    }
    expect(overlapped).toEqual(want);
  });
});

describe('due work', () => {
  it('refunds an authorization once its capture window has passed, and not a moment before', () => {
    const [store] = twoProcessesOneFile();
    const now = 1_700_000_000;
    const payment = store.tx(() => {
      const placed = createOrder(store, now, { amount: 50_000, currency: 'INR' });
      return newPayment(store, now, 60, placed, {});
    });
    const run = dueWork(store, 60);
    run(now + 59);
    run(now + 59); // nothing written since: the same second is not looked at again
    expect(store.get('payment', payment.id)?.status).toBe('authorized');
    run(now + 60);
    expect(store.get('payment', payment.id)).toMatchObject({ status: 'refunded', amount_refunded: 50_000 });
  });
});
