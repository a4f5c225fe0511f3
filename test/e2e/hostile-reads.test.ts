import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ndjson, run, scratchDir } from './harness';
import { payment, refund, standInForFile } from './stand-in';

/**
 * Reads by id against a stand-in that answers for another record, or keeps rate limiting some ids: a
 * record is shown only as the one it is, and one slow id does not hold back the ids behind it.
 */
const stand = standInForFile();
const dir = scratchDir('payctl-hostile-reads-');
const A = payment(1);
const B = payment(2);
const C = payment(3);
const payctl = (args: string[], timeoutMs = 60_000) => run(args, { env: stand.env, timeoutMs });

/** Payments by id, except where `answers` says what to send instead. */
function payments(answers: Record<string, unknown> = {}) {
  const known = new Map([A, B, C].map((p) => [p.id, p]));
  stand.on('GET /payments/:id', (_q, { id }) => {
    const body = id! in answers ? answers[id!] : known.get(id!);
    return body ? { body } : undefined;
  });
}

describe('a record is the one asked for', () => {
  it('`payments get A` answered with payment B: exit 1 naming both, nothing on stdout', async () => {
    payments({ [A.id]: B });
    const res = await payctl(['payments', 'get', A.id, '-o', 'json']);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(`payctl: the service answered for id "${B.id}" when asked for ${A.id}`);
  });

  it('`payments get A` answered with a refund: exit 1, nothing on stdout', async () => {
    payments({ [A.id]: refund(1, { id: A.id }) });
    const res = await payctl(['payments', 'get', A.id, '-o', 'json']);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^payctl: .*entity/m);
  });

  it.each([
    ['refunds', 'GET /refunds/:id', refund(1), refund(2)],
    [
      'orders',
      'GET /orders/:id',
      { id: 'order_Stand00000001', entity: 'order' },
      {
        id: 'order_Stand00000002',
        entity: 'order',
        amount: 1,
        currency: 'INR',
        status: 'paid',
        notes: [],
        created_at: 1_714_000_000,
      },
    ],
    [
      'settlements',
      'GET /settlements/:id',
      { id: 'setl_Stand00000001' },
      { id: 'setl_Stand00000002', entity: 'settlement', amount: 1, created_at: 1_714_000_000 },
    ],
  ])('`%s get ID` answered for another id: exit 1', async (group, route, asked, other) => {
    stand.on(route, () => ({ body: other }));
    const res = await payctl([group, 'get', (asked as { id: string }).id, '-o', 'json']);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(`when asked for ${(asked as { id: string }).id}`);
  });

  it('`payments get A B C` with B answered as C: an error row for B, A and C as they are, in order, exit 1', async () => {
    payments({ [B.id]: C });
    const res = await payctl(['payments', 'get', A.id, B.id, C.id, '-o', 'ndjson']);
    expect(res.code).toBe(1);
    const rows = ndjson<{ id: string; error?: string; amount?: number }>(res.stdout);
    expect(rows.map((r) => r.id)).toEqual([A.id, B.id, C.id]);
    expect(rows[0]).toMatchObject({ amount: A.amount });
    expect(rows[1]).toEqual({
      id: B.id,
      error: `${B.id}: the service answered for id "${C.id}" when asked for ${B.id}`,
    });
    expect(rows[2]).toMatchObject({ amount: C.amount });
    expect(res.stderr).toMatch(/1 of 3 payments could not be read/);
  });
});

describe('a rate-limited id does not hold back the ids behind it', () => {
  it('10,000 ids, 1% always answered 429: every row in input order, those 100 as errors, in bounded time', async () => {
    const ids = Array.from({ length: 10_000 }, (_, n) => payment(n).id);
    const limited = (n: number) => n % 100 === 37;
    stand.on('GET /payments/:id', (_q, { id }) => {
      const n = Number(id!.slice('pay_Stand'.length));
      if (limited(n))
        return { status: 429, body: { error: { code: 'BAD_REQUEST_ERROR', description: 'Too many requests' } } };
      return { body: payment(n) };
    });
    writeFileSync(join(dir, 'ids.txt'), ids.join('\n') + '\n');
    const started = Date.now();
    const res = await payctl(['payments', 'get', '--input', join(dir, 'ids.txt'), '-o', 'ndjson'], 170_000);
    const seconds = (Date.now() - started) / 1000;
    console.log(`10,000 ids with 1% always 429: ${seconds.toFixed(1)} s`);
    expect(res.code, res.stderr).toBe(1);
    const rows = ndjson<{ id: string; error?: string }>(res.stdout);
    expect(rows.map((r) => r.id)).toEqual(ids);
    const failed = rows.filter((r) => r.error !== undefined);
    expect(failed).toHaveLength(100);
    for (const r of failed) expect(r.error).toMatch(/rate limited \(HTTP 429\) and retries exhausted after 7 attempts/);
    expect(res.stderr).toMatch(/100 of 10000 payments could not be read/);
  }, 180_000);
});
