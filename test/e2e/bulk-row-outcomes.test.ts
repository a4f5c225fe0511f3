import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startFaultProxy } from './fault-proxy';
import type { FaultProxy } from './fault-proxy';
import { bulkRows, run, seedAuthorized, seedCaptured, startSandbox } from './harness';
import type { SandboxProcess } from './harness';

/**
 * What a bulk row says happened, against the sandbox (its real "The id provided does not exist" error
 * object) and a proxy that loses or mangles reads: only the service's own refusal makes a row failed;
 * a row whose payment could not be read is unknown, with the command that checks it.
 */
let sb: SandboxProcess | undefined;
let proxy: FaultProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await sb?.stop();
  proxy = sb = undefined;
});

const GHOST = 'pay_NoSuchPayment1';
const html400 = { type: 'status-before', status: 400, body: '<html><body>Bad Gateway</body></html>' } as const;

describe('a bulk refund row whose payment does not exist', () => {
  it('is failed ("no such payment; nothing was sent") in the run, the recheck and the resume, with its line and amount', async () => {
    sb = await startSandbox();
    const [real] = await seedCaptured(sb, 1);
    const csv = join(sb.home, 'refunds.csv');
    writeFileSync(csv, `payment_id,amount\n${real},1000\n${GHOST},700\n`);
    const journal = join(sb.home, 'refunds.ndjson');
    const args = ['payments', 'refund', '--input', csv, '--yes', '-o', 'ndjson', '--journal', journal];

    // First through a proxy whose answer to the look for its key is a gateway's page: that row could
    // not be read, so it is unknown (never failed), with its check.
    proxy = await startFaultProxy(sb.baseUrl, (r) => (r.path.includes(GHOST) ? html400 : { type: 'pass' }));
    const lost = await run(args, { env: { ...sb.env, PAYCTL_BASE_URL: proxy.baseUrl } });
    expect(lost.code, lost.stderr).toBe(7);
    const [first, ghost] = bulkRows(lost.stdout).sort((a, b) => a.line - b.line);
    expect(first).toMatchObject({ line: 2, result: 'done' });
    expect(ghost).toMatchObject({ line: 3, payment_id: GHOST, result: 'unknown', amount: 700 });
    expect(ghost!.reason).toMatch(new RegExp(`payments get ${GHOST}`));

    const recheck = await run(['payments', 'refund', '--recheck', '--journal', journal, '-o', 'ndjson'], {
      env: sb.env,
    });
    expect(recheck.code, recheck.stderr).toBe(7);
    const rows = bulkRows(recheck.stdout);
    expect(rows.find((r) => r.payment_id === GHOST)).toMatchObject({
      line: 3,
      result: 'failed',
      amount: 700,
      reason: expect.stringMatching(/^no such payment; nothing was sent/),
    });
    expect(recheck.stderr).toMatch(/failed pay_NoSuchPayment1 \(line 3\): no such payment; nothing was sent/);
    expect(recheck.stderr).not.toMatch(/money may have moved|unknown pay_NoSuchPayment1/);

    const resumed = await run(args, { env: sb.env });
    expect(resumed.code, resumed.stderr).toBe(7);
    expect(bulkRows(resumed.stdout).find((r) => r.payment_id === GHOST)).toMatchObject({
      line: 3,
      result: 'failed',
      amount: 700,
      reason: expect.stringMatching(/^no such payment; nothing was sent/),
    });
    expect((await sb.stats()).applied.refunds).toEqual({ [real!]: { count: 1, amount: 1000 } });
  });

  it('a fresh run says failed at once, as a bulk capture of the same id does, in the same words', async () => {
    sb = await startSandbox();
    const [real] = await seedCaptured(sb, 1);
    const [authorized] = await seedAuthorized(sb, 1);
    const refund = await run(['payments', 'refund', real!, GHOST, '--amount', '100', '--yes', '-o', 'ndjson'], {
      env: sb.env,
    });
    const capture = await run(['payments', 'capture', authorized!, GHOST, '--yes', '-o', 'ndjson'], { env: sb.env });
    for (const r of [refund, capture]) {
      expect(r.code, r.stderr).toBe(7);
      expect(bulkRows(r.stdout).find((row) => row.payment_id === GHOST)).toMatchObject({
        line: 2,
        result: 'failed',
        reason: 'no such payment; nothing was sent',
      });
    }
  });
});

describe('a bulk row whose payment read is answered for another payment', () => {
  it('is unknown with its check, never failed, and nothing is sent for it; a resume then does it once', async () => {
    sb = await startSandbox();
    const [a, b] = await seedCaptured(sb, 2);
    const [c, d] = await seedAuthorized(sb, 2);
    // The read of b (and of d) is answered with a's (and c's) record: a proxy or a broken service.
    const readOf = (r: { method: string; path: string }, asked: string) =>
      r.method === 'GET' && r.path.split('?')[0]!.endsWith(`/payments/${asked}`);
    proxy = await startFaultProxy(sb.baseUrl, (r) =>
      readOf(r, b!) || readOf(r, d!)
        ? { type: 'rewrite-after', edit: (body) => ({ ...body, id: readOf(r, b!) ? a : c }) }
        : { type: 'pass' },
    );
    const env = { ...sb.env, PAYCTL_BASE_URL: proxy.baseUrl };
    const capturedBefore = Object.keys((await sb.stats()).applied.captures);
    const journal = join(sb.home, 'refunds.ndjson');
    const refund = await run(
      ['payments', 'refund', a!, b!, '--amount', '500', '--yes', '-o', 'ndjson', '--journal', journal],
      { env },
    );
    const capture = await run(['payments', 'capture', c!, d!, '--yes', '-o', 'ndjson'], { env });
    for (const [r, asked] of [
      [refund, b!],
      [capture, d!],
    ] as const) {
      expect(r.code, r.stderr).toBe(7);
      const row = bulkRows(r.stdout).find((x) => x.payment_id === asked);
      expect(row).toMatchObject({ line: 2, result: 'unknown' });
      expect(row!.reason).toMatch(/answered for id .* when asked for/);
      expect(row!.reason).toMatch(new RegExp(`check with \`payctl payments get ${asked}\``));
    }
    const applied = (await sb.stats()).applied;
    expect(applied.refunds).toEqual({ [a!]: { count: 1, amount: 500 } });
    expect(Object.keys(applied.captures).filter((id) => !capturedBefore.includes(id))).toEqual([c]);

    const resumed = await run(
      ['payments', 'refund', a!, b!, '--amount', '500', '--yes', '-o', 'ndjson', '--journal', journal],
      { env: sb.env },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await sb.stats()).applied.refunds).toEqual({
      [a!]: { count: 1, amount: 500 },
      [b!]: { count: 1, amount: 500 },
    });
  });
});
