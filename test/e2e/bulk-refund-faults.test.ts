import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFaultProxy } from './fault-proxy';
import type { Fault, FaultProxy } from './fault-proxy';
import { bulkRefundArgs, bulkRows as rowsOf, run, seedCaptured, startSandbox } from './harness';
import type { SandboxProcess } from './harness';

let sb: SandboxProcess | undefined;
let proxy: FaultProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await sb?.stop();
  proxy = undefined;
  sb = undefined;
});

const capturedPayments = (n: number) => seedCaptured(sb!, n);
const refunds = async () => (await sb!.stats()).applied.refunds;

/** Never twice, never more than asked: checked after every run. */
async function neverTwice(ids: string[], amount: number) {
  const applied = await refunds();
  for (const id of ids) {
    expect(applied[id]?.count ?? 0, id).toBeLessThanOrEqual(1);
    expect(applied[id]?.amount ?? 0, id).toBeLessThanOrEqual(amount);
  }
}

const isRefund = (path: string) => /\/payments\/[^/]+\/refund$/.test(path);

describe('bulk refunds under faults', () => {
  it('ambiguous answers are reconciled by key: applied ones are done, the others unknown until a resume sends them with the same key; every payment refunded exactly once', async () => {
    sb = await startSandbox();
    const ids = await capturedPayments(36);
    // Every kind of fault a proxy in front of the service produces, in turn, on the refund POSTs.
    const faults: Fault[] = [
      { type: 'html-after', status: 408 },
      { type: 'html-after', status: 499 },
      { type: 'drop-after' },
      { type: 'reset-mid-body' },
      { type: 'empty-after', status: 502 },
      { type: 'html-after', status: 504 },
      { type: 'drop-before' },
      { type: 'status-before', status: 503, body: '<html>503</html>' },
    ];
    let k = 0;
    proxy = await startFaultProxy(sb.baseUrl, (req) =>
      req.method === 'POST' && isRefund(req.path) ? faults[k++ % faults.length]! : { type: 'pass' },
    );
    const csv = join(sb.home, 'refunds.csv');
    writeFileSync(csv, `payment_id,amount\n${ids.map((id) => `${id},12000`).join('\n')}\n`);
    const journal = join(sb.home, 'refunds.ndjson');
    // A 3 s deadline: an unknown row is sent again only once its request can no longer arrive (6 s after it left).
    const args = bulkRefundArgs(csv, journal, '--timeout', '3');
    const env = { ...sb.env, PAYCTL_BASE_URL: proxy.baseUrl, PAYCTL_MAX_RETRIES: '0' };

    const first = await run(args, { env, timeoutMs: 120_000 });
    expect(first.code, first.stderr).toBe(7);
    const firstRows = rowsOf(first.stdout);
    expect(firstRows).toHaveLength(36);
    await neverTwice(ids, 12000);
    // Answers lost after the service applied the refund: found by the row's key among the payment's refunds.
    expect(firstRows.filter((r) => r.result === 'done' && r.reason?.includes('carries our key')).length).toBe(28);
    // Those never forwarded are unknown, never "not applied": the request may still land.
    const unknown = firstRows.filter((r) => r.result === 'unknown');
    expect(unknown).toHaveLength(8);
    for (const r of unknown) expect(r.reason).toMatch(/no refund carries our key yet, and the request may still land/);
    expect(first.stdout + first.stderr).not.toMatch(/not applied|safe to run/);

    // The resume looks for each key again and, finding none, sends the same refund with the same key.
    proxy.setRule(() => ({ type: 'pass' }));
    await new Promise((r) => setTimeout(r, 6_100)); // past the quiet period (a lower bound, not a race)
    const resumed = await run(args, { env, timeoutMs: 120_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    const applied = await refunds();
    for (const id of ids) expect(applied[id], id).toEqual({ count: 1, amount: 12000 });

    // And once more: nothing left to do, nothing sent.
    const posts = proxy.log.filter((r) => r.method === 'POST').length;
    const again = await run(args, { env, timeoutMs: 120_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(proxy.log.filter((r) => r.method === 'POST').length).toBe(posts);
  });

  it('--recheck resolves unknowns from the journal without sending anything, and reaches exit 0', async () => {
    sb = await startSandbox();
    const ids = await capturedPayments(12);
    // Every refund is applied but its answer lost, and reading the payment back fails too.
    proxy = await startFaultProxy(sb.baseUrl, (req) => {
      if (req.method === 'POST') return { type: 'empty-after', status: 502 };
      return req.nth === 1 ? { type: 'pass' } : { type: 'status-before', status: 503 };
    });
    const journal = join(sb.home, 'recheck.ndjson');
    const env = { ...sb.env, PAYCTL_BASE_URL: proxy.baseUrl, PAYCTL_MAX_RETRIES: '0' };
    const first = await run(
      ['payments', 'refund', ...ids, '--amount', '7000', '--yes', '-o', 'ndjson', '--journal', journal],
      { env, timeoutMs: 120_000 },
    );
    expect(first.code, first.stderr).toBe(7);
    expect(
      rowsOf(first.stdout).every(
        (r) => r.result === 'unknown' && r.reason?.includes("could not read the payment's refunds"),
      ),
    ).toBe(true);
    expect(first.stderr).toContain(`payctl payments refund --recheck --journal ${journal}`);

    proxy.setRule(() => ({ type: 'pass' }));
    const posts = proxy.log.filter((r) => r.method === 'POST').length;
    const recheck = await run(['payments', 'refund', '--recheck', '--journal', journal, '-o', 'ndjson'], {
      env,
      timeoutMs: 120_000,
    });
    expect(recheck.code, recheck.stderr).toBe(0);
    expect(recheck.stderr).toContain('rechecking 12 payment(s)');
    const rows = rowsOf(recheck.stdout);
    expect(rows.map((r) => r.payment_id).sort()).toEqual([...ids].sort());
    expect(rows.every((r) => r.result === 'done' && r.reason?.includes('carries our key'))).toBe(true);
    expect(proxy.log.filter((r) => r.method === 'POST').length).toBe(posts);
    const applied = await refunds();
    for (const id of ids) expect(applied[id]).toEqual({ count: 1, amount: 7000 });

    // The journal now says done: resuming the same run sends nothing either.
    const resumed = await run(
      ['payments', 'refund', ...ids, '--amount', '7000', '--yes', '-o', 'ndjson', '--journal', journal],
      { env, timeoutMs: 120_000 },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(rowsOf(resumed.stdout).every((r) => r.result === 'skipped')).toBe(true);
    expect(proxy.log.filter((r) => r.method === 'POST').length).toBe(posts);
  });

  it('refuses an amount above what remains without sending it', async () => {
    sb = await startSandbox();
    const ids = await capturedPayments(2);
    expect((await sb.api('POST', `/payments/${ids[0]}/refund`, { amount: 45000 })).status).toBe(200);
    const res = await run(['payments', 'refund', ...ids, '--amount', '10000', '--yes', '-o', 'ndjson'], {
      env: sb.env,
    });
    expect(res.code).toBe(7);
    const rows = rowsOf(res.stdout);
    expect(rows.find((r) => r.payment_id === ids[0])).toMatchObject({
      result: 'failed',
      reason: expect.stringContaining('10000 is more than the 5000 that remains'),
    });
    expect(rows.find((r) => r.payment_id === ids[1])?.result).toBe('done');
    expect((await refunds())[ids[0]!]).toEqual({ count: 1, amount: 45000 });
  });
});
