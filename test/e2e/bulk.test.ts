import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BIN,
  addProfile,
  bulkCaptureArgs,
  bulkRows as rowsOf,
  expectCapturedOnce,
  readJournal,
  run,
  runJson,
  runProcess,
  sandboxForTest,
  seedAuthorized as seed,
  startPayctl,
} from './harness';
import type { SandboxProcess } from './harness';

interface Payment {
  id: string;
  status: string;
  amount: number;
  amount_refunded: number;
}

let sb: SandboxProcess | undefined;

const seedAuthorized = (n: number) => seed(sb!, n);

/** Every payment as the service sees it now, read through an admin-free path: the CLI's own page walker. */
async function allPayments(): Promise<Map<string, Payment>> {
  const res = await runJson<Payment[]>(sb!, ['payments', 'list', '--all'], { timeoutMs: 120_000 });
  expect(res.code, res.stderr).toBe(0);
  return new Map(res.data!.map((p) => [p.id, p]));
}

describe('bulk capture', () => {
  it('captures 1,000 payments from stdin through 10% faults and a rate limit, each exactly once', async () => {
    // Processes, payctl's and the sandbox's: the rate limit must be reached, so each needs a core of its own.
    sb = await sandboxForTest(['--fault-rate', '0.1', '--rate-limit', '150', '--seed', '7'], 'process');
    const ids = await seedAuthorized(1000);
    const journal = join(sb.home, 'capture.ndjson');
    const args = ['--debug', 'payments', 'capture', '--input', '-', '--yes', '-o', 'ndjson', '--journal', journal];
    const res = await runProcess(args, { env: sb.env, input: `${ids.join('\n')}\n`, timeoutMs: 180_000 });
    expect(res.code, res.stderr).toBe(0);
    const rows = rowsOf(res.stdout);
    expect(rows).toHaveLength(1000);
    expect(rows.every((r) => r.result === 'done' && r.status === 'captured')).toBe(true);
    expect(res.stderr).toContain('1000 done, 0 skipped (already done), 0 failed, 0 unknown');

    expect(Object.keys((await sb.stats()).applied.captures).sort()).toEqual([...ids].sort());
    await expectCapturedOnce(sb, 1000);
    const payments = await allPayments();
    expect(ids.every((id) => payments.get(id)?.status === 'captured')).toBe(true);
    // Faults and the rate limit really happened: answers were lost and read back, 429s were waited out.
    expect(rows.some((r) => r.reason?.includes('read back'))).toBe(true);
    expect(res.stderr).toMatch(/capture -> 429 /);
    expect(res.stderr).toMatch(/capture -> 500 /);
  });

  it('resumes a run killed with SIGKILL half way: nothing captured twice, nothing missed', async () => {
    // The run killed is a process, and so is the sandbox it races (at its rate limit); the resume runs in-process.
    sb = await sandboxForTest(
      ['--fault-rate', '0.1', '--rate-limit', '400', '--seed', '11', '--latency', '2'],
      'process',
    );
    const ids = await seedAuthorized(1000);
    const journal = join(sb.home, 'killed.ndjson');
    const args = [BIN, 'payments', 'capture', '--input', '-', '--yes', '-o', 'ndjson', '--journal', journal];

    const first = spawn(process.execPath, args, {
      env: { ...process.env, ...sb.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    first.stdin.end(`${ids.join('\n')}\n`);
    let seen = 0;
    let firstOut = '';
    const killed = new Promise<number>((resolve) => {
      first.stdout.on('data', (d: Buffer) => {
        firstOut += d.toString();
        seen = firstOut.split('\n').length - 1;
        if (seen >= 500 && first.exitCode === null && !first.killed) first.kill('SIGKILL');
      });
      first.on('exit', () => resolve(seen));
    });
    const before = await killed;
    expect(before).toBeGreaterThanOrEqual(500);
    expect(before).toBeLessThan(1000);
    expect(existsSync(`${journal}.lock`)).toBe(true); // left behind by the killed run; the resume takes it over

    const resumed = await run(args.slice(1), { env: sb.env, input: `${ids.join('\n')}\n`, timeoutMs: 180_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/resuming journal .*: \d+ done before/);
    const rows = rowsOf(resumed.stdout);
    expect(rows).toHaveLength(1000);
    expect(rows.filter((r) => r.result === 'skipped').length).toBeGreaterThanOrEqual(before - 16);
    expect(rows.every((r) => r.result === 'done' || r.result === 'skipped')).toBe(true);

    await expectCapturedOnce(sb, 1000);
    const payments = await allPayments();
    expect(ids.every((id) => payments.get(id)?.status === 'captured')).toBe(true);
  });

  it('stops on SIGINT after the requests in flight, exits 130, and the journal finishes the run', async () => {
    sb = await sandboxForTest(['--latency', '20']);
    const ids = await seedAuthorized(200);
    const journal = join(sb.home, 'int.ndjson');
    const args = [...bulkCaptureArgs(sb, ids, journal), '--concurrency', '4'];
    const p = startPayctl(args, sb.env);
    await p.rows(20);
    p.signal('SIGINT');
    const code = await p.exit;
    const [out, err] = [p.out(), p.err()];
    expect(code, err).toBe(130);
    expect(err).toContain('interrupted:');
    const rows = rowsOf(out);
    const { sent, outcomes } = readJournal(journal);
    // Everything it sent, it waited for: no request is left in flight by an interrupt.
    expect(sent.every((id) => outcomes.has(id))).toBe(true);
    expect(rows.length).toBe(outcomes.size);
    expect(rows.length).toBeLessThan(200);

    const rest = await run(args, { env: sb.env });
    expect(rest.code, rest.stderr).toBe(0);
    expect(rowsOf(rest.stdout).filter((r) => r.result === 'done')).toHaveLength(200 - rows.length);
    await expectCapturedOnce(sb, 200);
  });
});

describe('bulk refund', () => {
  it('never refunds more than asked under faults: lost answers are found by their key or stay unknown, and a resume finishes them once', async () => {
    sb = await sandboxForTest(['--fault-rate', '0.15', '--seed', '3']);
    const ids = await seedAuthorized(150);
    const cap = await run(['payments', 'capture', '--input', '-', '--yes', '-o', 'ndjson'], {
      env: sb.env,
      input: ids.join('\n'),
    });
    expect(cap.code, cap.stderr).toBe(0);

    const csv = join(sb.home, 'refunds.csv');
    writeFileSync(csv, `payment_id,amount,note.reason\n${ids.map((id) => `${id},12000,damaged`).join('\n')}\n`);
    const journal = join(sb.home, 'refunds.ndjson');
    // A 2 s deadline: an unknown row is sent again only once its request can no longer arrive (4 s after it left).
    const args = ['payments', 'refund', '--input', csv, '--yes', '-o', 'ndjson', '--journal', journal];
    args.push('--timeout', '2');
    const res = await run(args, { env: sb.env, timeoutMs: 120_000 });
    const rows = rowsOf(res.stdout);
    expect(rows).toHaveLength(150);
    const unknown = rows.filter((r) => r.result === 'unknown');
    expect(res.code, res.stderr).toBe(unknown.length || rows.some((r) => r.result === 'failed') ? 7 : 0);
    // Lost answers were looked for by key: the faults were met, and some were resolved as done that way.
    expect(rows.some((r) => /carries our key/.test(String(r.reason)))).toBe(true);

    // The journal names exactly the payments whose outcome is unknown.
    const { records } = readJournal(journal);
    const journalUnknown = records.filter((r) => r.type === 'outcome' && r.result === 'unknown').map((r) => r.id);
    expect(new Set(journalUnknown)).toEqual(new Set(unknown.map((r) => r.payment_id)));

    const payments = await allPayments();
    for (const id of ids) expect(payments.get(id)!.amount_refunded).toBeLessThanOrEqual(12000);
    for (const r of rows.filter((x) => x.result === 'done'))
      expect(payments.get(r.payment_id)!.amount_refunded).toBe(12000);

    // Resumes look for each unfinished row's key and send only what no refund carries: never twice.
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 4_100)); // past the quiet period (a lower bound, not a race)
      const again = await run(args, { env: sb.env, timeoutMs: 120_000 });
      const after = await allPayments();
      for (const id of ids) expect(after.get(id)!.amount_refunded).toBeLessThanOrEqual(12000);
      if (again.code === 0) break;
    }
    const final = await allPayments();
    for (const r of rows.filter((x) => x.result === 'done'))
      expect(final.get(r.payment_id)!.amount_refunded).toBe(12000);
  }, 180_000);
});

describe("one payment with a bulk run's flags", () => {
  it('one id with --journal is a journaled run of one: run twice, refunded once, the second run says so', async () => {
    sb = await sandboxForTest();
    const [id] = await seedAuthorized(1);
    expect((await run(['payments', 'capture', id!, '--yes'], { env: sb.env })).code).toBe(0);
    const journal = join(sb.home, 'one-refund.ndjson');
    const refund = () =>
      run(['payments', 'refund', id!, '--amount', '700', '--journal', journal, '--yes', '-o', 'ndjson'], {
        env: sb!.env,
      });
    const first = await refund();
    expect(first.code, first.stderr).toBe(0);
    expect(rowsOf(first.stdout)).toMatchObject([{ payment_id: id, result: 'done', amount: 700 }]);
    const second = await refund();
    expect(second.code, second.stderr).toBe(0);
    expect(rowsOf(second.stdout)).toMatchObject([{ payment_id: id, result: 'skipped' }]);
    expect(second.stderr).toMatch(/0 done, 1 skipped \(already done\)/);
    expect((await sb.stats()).applied.refunds[id!]).toEqual({ count: 1, amount: 700 });
  });
});

describe('bulk input', () => {
  it('reports every bad row with its line number and sends nothing', async () => {
    sb = await sandboxForTest();
    const [good] = await seedAuthorized(1);
    const before = await sb.stats();
    const input = `payment_id,amount,currency\n${good},50000,INR\npay_bad id,1,INR\n${good},50000,INR\npay_x1,12.5,INR\n`;
    const res = await run(['payments', 'capture', '--input', '-', '--yes'], { env: sb.env, input });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('3 bad input row(s); nothing was sent');
    expect(res.stderr).toMatch(/line 3: payment id must look like pay_/);
    expect(res.stderr).toMatch(/line 4: pay_\w+ is already on line 2/);
    expect(res.stderr).toMatch(/line 5: amount must be a whole number of paise.*did you mean 1250\?/);
    const after = await sb.stats();
    expect(after.requests).toBe(before.requests);
  });

  it('with --skip-invalid lists the bad rows and works through the good ones (NDJSON input)', async () => {
    sb = await sandboxForTest();
    const ids = await seedAuthorized(2);
    const input = `{"payment_id":"${ids[0]}"}\nnot json\n{"payment_id":"${ids[1]}","amount":50000,"currency":"INR","notes":[]}\n`;
    const res = await run(['payments', 'capture', '--input', '-', '--yes', '--skip-invalid', '-o', 'ndjson'], {
      env: sb.env,
      input,
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('skipped line 2: not a JSON object');
    expect(rowsOf(res.stdout).map((r) => r.result)).toEqual(['done', 'done']);
  });

  it('--dry-run prints each request and the total, and sends nothing', async () => {
    sb = await sandboxForTest();
    const ids = await seedAuthorized(3);
    const before = await sb.stats();
    const res = await run(['payments', 'refund', ...ids, '--amount', '2500', '--dry-run', '-o', 'ndjson'], {
      env: sb.env,
    });
    expect(res.code, res.stderr).toBe(0);
    const requests = rowsOf(res.stdout) as unknown as Array<{ method: string; url: string; body: { amount: number } }>;
    expect(requests.map((r) => r.url)).toEqual(ids.map((id) => `${sb!.baseUrl}/payments/${id}/refund`));
    expect(requests.every((r) => r.method === 'POST' && r.body.amount === 2500)).toBe(true);
    expect(res.stderr).toContain('3 refund(s), total ₹75.00');
    expect((await sb.stats()).requests).toBe(before.requests);
  });

  it('a dry run with no amounts never shows a count as a total; --read fetches and totals', async () => {
    sb = await sandboxForTest();
    const ids = await seedAuthorized(3);
    const before = await sb.stats();
    const words = await run(['payments', 'capture', ...ids, '--dry-run', '-o', 'ndjson'], { env: sb.env });
    expect(words.code, words.stderr).toBe(0);
    expect(words.stderr).toContain("3 capture(s) at each payment's full authorized amount; not read in a dry run");
    expect(words.stderr).not.toMatch(/total 3\b/);
    expect((await sb.stats()).requests).toBe(before.requests);
    const read = await run(['payments', 'capture', ...ids, '--dry-run', '--read', '-o', 'ndjson'], { env: sb.env });
    expect(read.code, read.stderr).toBe(0);
    expect(read.stderr).toContain('3 capture(s), total ₹1,500.00 (150000 paise)');
    expect((await sb.stats()).applied.captures).toEqual(before.applied.captures);
  });

  it('a live profile without a terminal needs --yes and --confirm-live with its name', async () => {
    sb = await sandboxForTest();
    const ids = await seedAuthorized(2);
    const env = await addProfile(sb, 'prod', { args: ['--live'] });
    const refused = await run(['--profile', 'prod', 'payments', 'capture', ...ids, '--yes'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('"prod" is a live profile');
    expect(refused.stderr).toContain('--confirm-live prod');
    const wrong = await run(
      ['--profile', 'prod', 'payments', 'capture', ...ids, '--yes', '--confirm-live', 'sandbox'],
      { env },
    );
    expect(wrong.code).toBe(2);
    const ok = await run(
      ['--profile', 'prod', 'payments', 'capture', ...ids, '--yes', '--confirm-live', 'prod', '-o', 'ndjson'],
      { env },
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(rowsOf(ok.stdout).map((r) => r.result)).toEqual(['done', 'done']);
  });

  it('a payment the service refuses is listed with its reason and the run exits 7', async () => {
    sb = await sandboxForTest();
    const ids = await seedAuthorized(2);
    await run(['payments', 'capture', ids[0]!, '--yes'], { env: sb.env });
    const res = await run(['payments', 'refund', ...ids, '--yes', '-o', 'ndjson'], { env: sb.env });
    expect(res.code).toBe(7);
    const rows = rowsOf(res.stdout);
    expect(rows.find((r) => r.payment_id === ids[0])?.result).toBe('done');
    const failed = rows.find((r) => r.payment_id === ids[1])!;
    expect(failed.result).toBe('failed');
    expect(failed.reason).toContain('Only captured payments can be refunded');
    expect(res.stderr).toContain(`failed ${ids[1]} (line 2)`);
  });
});
