import { beforeAll, describe, expect, it } from 'vitest';
import { addProfile, run, sandboxForFile } from './harness';
import { call, capturedPayment, refunded, structured, textOf, withMcp } from './mcp-client';
import type { Result } from './mcp-client';

const sb = sandboxForFile();
let ops: Record<string, string>;
beforeAll(async () => {
  ops = await addProfile(sb, 'ops');
});

const CAPS = ['-p', 'ops', '--allow-writes', '--max-writes', '1', '--max-total', '20000'];

const outcomes = (results: Result[]) => results.map((r) => String(structured(r)?.outcome ?? textOf(r)));

describe('payctl mcp caps: checked and reserved when the write is sent', () => {
  it('five refunds confirmed by the person at once, on --max-writes 1 --max-total 20000: exactly one is made', async () => {
    const ids = await Promise.all([1, 2, 3, 4, 5].map(() => capturedPayment(sb)));
    let asked = 0;
    let release!: () => void;
    const allAsked = new Promise<void>((r) => (release = r));
    // The person is asked five times before answering any: every call passed planning's courtesy check.
    const person = async () => {
      if (++asked === 5) release();
      await allAsked;
      return true;
    };
    await withMcp(
      CAPS,
      ops,
      async (client) => {
        const results = await Promise.all(
          ids.map((id) => call(client, 'payments_refund', { payment_id: id, amount: 20000 })),
        );
        expect(asked).toBe(5);
        const got = outcomes(results);
        expect(got.filter((o) => o === 'done')).toHaveLength(1);
        expect(got.filter((o) => o === 'refused')).toHaveLength(4);
        for (const r of results.filter((x) => structured(x).outcome === 'refused')) {
          expect(structured(r)).toMatchObject({ cap: 'max-writes' });
          expect(textOf(r)).toMatch(/refused by --max-writes 1.*nothing was sent/);
        }
        const moved = await Promise.all(ids.map((id) => refunded(sb, id)));
        expect(moved.reduce((a, b) => a + b, 0)).toBe(20000);
      },
      person,
    );
  });

  it('five tokens confirmed at once under the same caps: one is made, four are refused naming the cap', async () => {
    const ids = await Promise.all([1, 2, 3, 4, 5].map(() => capturedPayment(sb)));
    await withMcp(CAPS, ops, async (client) => {
      const plans = await Promise.all(
        ids.map((id) => call(client, 'payments_refund', { payment_id: id, amount: 20000 })),
      );
      const tokens = plans.map((p) => structured<{ token: string }>(p).token);
      const results = await Promise.all(tokens.map((token) => call(client, 'confirm', { token })));
      const got = outcomes(results);
      expect(got.filter((o) => o === 'done')).toHaveLength(1);
      expect(results.filter((r) => /refused by --max-writes 1/.test(textOf(r)))).toHaveLength(4);
      const moved = await Promise.all(ids.map((id) => refunded(sb, id)));
      expect(moved.reduce((a, b) => a + b, 0)).toBe(20000);
    });
  });

  it('--max-amount and --max-total name themselves when they refuse', async () => {
    const id = await capturedPayment(sb);
    await withMcp(
      ['-p', 'ops', '--allow-writes', '--max-amount', '5000', '--max-total', '8000'],
      ops,
      async (client) => {
        const big = await call(client, 'payments_refund', { payment_id: id, amount: 6000 });
        expect(structured(big)).toMatchObject({ outcome: 'refused', cap: 'max-amount' });
        expect(textOf(big)).toMatch(/refused by --max-amount 5000: this write moves 6000/);
        const plans = await Promise.all(
          [1, 2].map(() => call(client, 'payments_refund', { payment_id: id, amount: 5000 })),
        );
        const results = await Promise.all(
          plans.map((p) => call(client, 'confirm', { token: structured<{ token: string }>(p).token })),
        );
        expect(outcomes(results).sort()).toEqual(['done', 'refused']);
        expect(results.map((r) => structured(r).cap).filter(Boolean)).toEqual(['max-total']);
        expect(await refunded(sb, id)).toBe(5000);
      },
    );
    const log = await run(['mcp', 'log', '-o', 'json'], { env: ops });
    expect(log.code, log.stderr).toBe(0);
  });
});
