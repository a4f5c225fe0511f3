import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ndjson, readJournal, run, scratchDir } from './harness';
import type { BulkRow } from './harness';
import { payment, refund, standInForFile } from './stand-in';

/**
 * The same bulk input run on two machines at once, against a stand-in service that ignores the refund
 * idempotency header: it refuses one machine's send of a row (more than can be refunded, after another
 * operator's refund), and the other machine's send of that row, made for what remained, lands later.
 * The first machine's row is failed on the service's own word; its recheck finds the refund carrying
 * the row's key and reports the row done, sending nothing.
 */
const stand = standInForFile();
const dir = scratchDir('payctl-refused-twin-');
const A = payment(1);
const B = payment(2);
const payctl = (args: string[]) => run(args, { env: stand.env, timeoutMs: 60_000 });
const REFUSED = 'The refund amount provided is greater than amount captured';

describe('a row the service refused, refunded by a twin run', () => {
  it('is failed in the run, and done on the recheck once a refund carries its key; the recheck sends nothing', async () => {
    const refunds = new Map<string, unknown[]>([
      [A.id, []],
      [B.id, []],
    ]);
    stand.on('GET /payments/:id', (_q, { id }) => ({ body: id === A.id ? A : B }));
    stand.on('GET /payments/:id/refunds', (_q, { id }) => ({
      body: { entity: 'collection', count: refunds.get(id!)!.length, items: refunds.get(id!) },
    }));
    stand.on('POST /payments/:id/refund', (_q, { id }) =>
      id === B.id
        ? { status: 400, body: { error: { code: 'BAD_REQUEST_ERROR', description: REFUSED, source: 'business' } } }
        : undefined,
    );
    let made = 0;
    stand.on('POST /payments/:id/refund', (_q, { id }) => {
      const r = refund(1, { id: `rfnd_Made${String(++made).padStart(10, '0')}`, payment_id: id, amount: A.amount });
      refunds.get(id!)!.push(r);
      return { body: r };
    });

    const csv = join(dir, 'rows.csv');
    writeFileSync(csv, ['payment_id,amount', `${A.id},${A.amount}`, `${B.id},${B.amount}`].join('\n'));
    const journal = join(dir, 'journal.ndjson');
    const args = ['payments', 'refund', '--input', csv, '--journal', journal, '--yes', '-o', 'ndjson'];
    const first = await payctl(args);
    expect(first.code, first.stderr).toBe(7);
    const rows = ndjson<BulkRow>(first.stdout);
    expect(rows.find((r) => r.payment_id === B.id)).toMatchObject({ result: 'failed', reason: REFUSED });
    expect(rows.find((r) => r.payment_id === A.id)).toMatchObject({ result: 'done' });

    const posts = () => stand.log.filter((a) => a.path.endsWith('/refund')).length;
    const sent = posts();
    // No refund carries the row's key yet: the recheck keeps the service's refusal (failed, exit 7).
    const early = await payctl([...args, '--recheck']);
    expect(early.code, early.stderr).toBe(7);
    expect(ndjson<BulkRow>(early.stdout).find((r) => r.payment_id === B.id)).toMatchObject({ result: 'failed' });

    // The other machine's send of the row (same key, what remained) lands after the refusal.
    const key = readJournal(journal).records.find((r) => r.type === 'sent' && r.id === B.id)!.key as string;
    const twin = refund(2, { id: 'rfnd_Twin0000000001', payment_id: B.id, amount: 1_002, notes: { payctl_key: key } });
    refunds.get(B.id)!.push(twin);
    const recheck = await payctl([...args, '--recheck']);
    expect(recheck.code, recheck.stderr).toBe(0);
    expect(ndjson<BulkRow>(recheck.stdout).find((r) => r.payment_id === B.id)).toMatchObject({
      result: 'done',
      refund_id: twin.id,
    });
    expect(posts()).toBe(sent);
  });
});
