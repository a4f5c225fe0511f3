import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy } from './fault-proxy';
import {
  bulkRefundArgs,
  bulkRows as rowsOf,
  run,
  runProcess,
  sandboxForTest,
  seedCaptured,
  waitForFileText,
} from './harness';
import type { SandboxProcess } from './harness';
import { STRICT } from '../tools';
import { smallTmpfs } from './full-disk';

/**
 * Issue 26's bulk defects, driven from outside as a user meets them: a full disk under the journal,
 * an input rewritten in place during a run, the same input run from two machines (two homes) on one
 * sandbox with and without its idempotency support. Each checks the money that moved (the sandbox's
 * applied-refund counters and the payments read back) and the exit code.
 */
let sb: SandboxProcess | undefined;

const capturedPayments = (n: number) => seedCaptured(sb!, n);
const refunds = async () => (await sb!.stats()).applied.refunds;

/** Each payment refunded exactly `amount`, in exactly one refund. */
async function refundedOnce(ids: string[], amount: number) {
  const applied = await refunds();
  for (const id of ids) expect(applied[id], id).toEqual({ count: 1, amount });
  for (const id of ids.slice(0, 5))
    expect((await sb!.api<{ amount_refunded: number }>('GET', `/payments/${id}`)).body.amount_refunded).toBe(amount);
}

const csvOf = (ids: string[], amount: number) =>
  `payment_id,amount,note.reason\n${ids.map((id) => `${id},${amount},damaged`).join('\n')}\n`;

const tmpfs = smallTmpfs();

describe.skipIf(!tmpfs.dir && !STRICT)(
  `a journal on a full disk${tmpfs.reason ? ` (skipped: ${tmpfs.reason})` : ''}`,
  () => {
    beforeAll(() => {
      if (!tmpfs.dir) throw new Error(`${tmpfs.reason}, and PAYCTL_TEST_STRICT=1 lets no test skip`);
    });
    it('ENOSPC stops the run (exit 7, the in-flight summary); after space is freed the resume refunds each payment exactly once', async () => {
      sb = await sandboxForTest();
      const ids = await capturedPayments(200);
      const csv = join(sb.home, 'refunds.csv');
      writeFileSync(csv, csvOf(ids, 1000));
      const journal = join(tmpfs.dir, 'refunds.ndjson');
      // A 2 s deadline: a row announced when the disk filled is sent again once it can no longer arrive (4 s).
      const args = bulkRefundArgs(csv, journal, '--timeout', '2');

      // Through the binary: a full disk is one of the things a process's exit is part of.
      const full = await runProcess(args, { env: sb.env, timeoutMs: 120_000 });
      expect(full.code, full.stderr).toBe(7);
      expect(full.stderr).toMatch(/cannot write the journal \S+ \(ENOSPC\): the run stopped; \d+ done/);
      expect(full.stderr).not.toMatch(/\n\s+at /);
      const applied = await refunds();
      const moved = Object.keys(applied).length;
      expect(moved).toBeGreaterThan(0);
      expect(moved).toBeLessThan(200); // it stopped
      for (const id of ids) expect(applied[id]?.count ?? 0, id).toBeLessThanOrEqual(1);

      // Space freed (the same file system, larger): the resume looks for every unfinished row's key first.
      execFileSync('mount', ['-o', 'remount,size=4m', tmpfs.dir]);
      await new Promise((r) => setTimeout(r, 4_100)); // past the quiet period (a lower bound, not a race)
      const resumed = await runProcess(args, { env: sb.env, timeoutMs: 120_000 });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toMatch(/resuming journal/);
      await refundedOnce(ids, 1000);
    }, 180_000);
  },
);

describe('the plan is frozen before the question', () => {
  it('an input rewritten in place during the run changes nothing: the confirmed plan is what is sent', async () => {
    sb = await sandboxForTest(['--latency', '20']);
    const ids = await capturedPayments(40);
    const csv = join(sb.home, 'refunds.csv');
    writeFileSync(csv, csvOf(ids, 1000));
    const journal = join(sb.home, 'refunds.ndjson');
    const args = bulkRefundArgs(csv, journal);
    args.push('--concurrency', '2');
    const running = run(args, { env: sb.env, timeoutMs: 120_000 });
    await waitForFileText(journal, '"type":"sent"');
    // An export job regenerates the file in place: other amounts, and a bad row.
    writeFileSync(csv, `${csvOf(ids, 40000)}pay_bad,1x,oops\n`);
    const res = await running;
    expect(res.code, res.stderr).toBe(0);
    expect(rowsOf(res.stdout).filter((r) => r.result === 'done')).toHaveLength(40);
    await refundedOnce(ids, 1000);

    // Resuming that journal with another input: exit 2 naming the first difference, nothing sent.
    writeFileSync(csv, csvOf(ids, 40000));
    const before = await refunds();
    const again = await run(args, { env: sb.env, timeoutMs: 60_000 });
    expect(again.code, again.stderr).toBe(2);
    expect(again.stderr).toMatch(/not the one journal \S+ was planned from: row 1 differs: line 2 is .*40000/);
    expect(again.stderr).toMatch(/nothing was sent/);
    expect(await refunds()).toEqual(before);
  });

  it('non-regular --input and --journal paths are exit 2 before anything is read or sent', async () => {
    sb = await sandboxForTest();
    const ids = await capturedPayments(1);
    const dir = join(sb.home, 'a-dir');
    mkdirSync(dir);
    const fifo = join(sb.home, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const csv = join(sb.home, 'ok.csv');
    writeFileSync(csv, csvOf(ids, 1000));
    const locked = join(sb.home, 'locked.ndjson');
    mkdirSync(`${locked}.lock`);
    for (const args of [
      ['--input', csv, '--journal', locked],
      ['--input', '/dev/zero'],
      ['--input', dir],
      ['--input', fifo],
      ['--input', csv, '--journal', dir],
      ['--input', csv, '--journal', '/dev/zero'],
      ['--input', csv, '--journal', fifo],
    ]) {
      const res = await run(['payments', 'refund', ...args, '--yes'], { env: sb.env, timeoutMs: 20_000 });
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toMatch(/is not a regular file/);
    }
    expect(await refunds()).toEqual({});
  });
});

describe('a refund that arrives after the read-back', () => {
  it('is unknown (exit 7), never "not applied"; once it lands the resume finds its key and sends nothing', async () => {
    sb = await sandboxForTest(['--no-idempotency']); // the list alone must keep it from doubling
    const ids = await capturedPayments(4);
    let release!: () => void;
    const until = new Promise<void>((r) => (release = r));
    let landed!: (status: number) => void;
    const arrived = new Promise<number>((r) => (landed = r));
    let held = false;
    const proxy = await startFaultProxy(sb.baseUrl, (req) => {
      if (req.method !== 'POST' || held) return { type: 'pass' };
      held = true;
      return { type: 'held', status: 504, until, landed };
    });
    try {
      const csv = join(sb.home, 'refunds.csv');
      writeFileSync(csv, csvOf(ids, 2000));
      const args = ['payments', 'refund', '--input', csv, '--yes', '-o', 'ndjson', '--concurrency', '1'];
      const env = { ...sb.env, PAYCTL_BASE_URL: proxy.baseUrl };
      const first = await run(args, { env, timeoutMs: 60_000 });
      expect(first.code, first.stderr).toBe(7);
      const unknown = rowsOf(first.stdout).filter((r) => r.result === 'unknown');
      expect(unknown).toHaveLength(1);
      expect(unknown[0]!.reason).toMatch(/may still land/);
      expect(first.stdout + first.stderr).not.toMatch(/not applied|safe to run/);
      release();
      expect(await arrived).toBe(200);
      const posts = proxy.log.filter((r) => r.method === 'POST').length;
      const resumed = await run(args, { env, timeoutMs: 60_000 });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(rowsOf(resumed.stdout).find((r) => r.payment_id === unknown[0]!.payment_id)?.reason).toMatch(
        /carries our key/,
      );
      expect(proxy.log.filter((r) => r.method === 'POST').length).toBe(posts);
      await refundedOnce(ids, 2000);
    } finally {
      await proxy.close();
    }
  });
});

describe('two machines (two homes, no shared journal) run the same refund input', () => {
  const twoHomes = async (together: boolean) => {
    const ids = await capturedPayments(30);
    const homes = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'payctl-machine-')));
    const go = (home: string) => {
      const csv = join(home, 'refunds.csv');
      writeFileSync(csv, csvOf(ids, 1500));
      return run(['payments', 'refund', '--input', csv, '--yes', '-o', 'ndjson'], {
        env: { ...sb!.env, PAYCTL_HOME: home },
        timeoutMs: 120_000,
      });
    };
    try {
      const results = together ? await Promise.all(homes.map(go)) : [await go(homes[0]!), await go(homes[1]!)];
      return { ids, results };
    } finally {
      for (const h of homes) rmSync(h, { recursive: true, force: true });
    }
  };

  it('with the service honouring X-Refund-Idempotency, even at the same time: each payment refunded once', async () => {
    sb = await sandboxForTest(['--latency', '5']);
    const { ids, results } = await twoHomes(true);
    for (const r of results) {
      expect([0, 7], r.stderr).toContain(r.code);
      expect(rowsOf(r.stdout).every((x) => x.result !== 'failed')).toBe(true);
    }
    await refundedOnce(ids, 1500);
  });

  it('with a service that ignores the header (sandbox --no-idempotency): the second machine finds each key and sends nothing', async () => {
    sb = await sandboxForTest(['--no-idempotency']);
    const { ids, results } = await twoHomes(false);
    expect(results[0]!.code, results[0]!.stderr).toBe(0);
    expect(results[1]!.code, results[1]!.stderr).toBe(0);
    const second = rowsOf(results[1]!.stdout);
    expect(second).toHaveLength(30);
    for (const r of second) {
      expect(r.result).toBe('skipped');
      expect(r.reason).toMatch(/refunded already with this run's key/);
    }
    await refundedOnce(ids, 1500);
  });
});
