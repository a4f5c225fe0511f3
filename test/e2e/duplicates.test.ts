import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addProfile, bulkRows, readJournal, run, sandboxForTest, seedCaptured } from './harness';
import type { SandboxProcess } from './harness';

/**
 * On a service that ignores the refund idempotency header, the same refund can be made twice (two
 * machines at once). payctl cannot prevent that there, but it must never call such a row done: a
 * resume or --recheck that finds more than one refund carrying a row's key reports the row as a
 * duplicate with the refund ids and exits 7, and sends nothing for it.
 */
let sb: SandboxProcess | undefined;

interface Stats {
  applied: { refunds: Record<string, { count: number; amount: number }> };
}
const applied = async () => (await sb!.admin<Stats>('GET', '/stats')).applied.refunds;

async function refundsOf(id: string): Promise<Array<{ id: string; notes: Record<string, string> }>> {
  const res = await sb!.api<{ items: Array<{ id: string; notes: Record<string, string> }> }>(
    'GET',
    `/payments/${id}/refunds`,
  );
  return res.body.items;
}

describe('a refund made twice under one key is named a duplicate', () => {
  it("a second refund carrying a row's key: resume and --recheck exit 7 naming the row and both refunds", async () => {
    sb = await sandboxForTest(['--no-idempotency']);
    const env = await addProfile(sb, 'shop');
    const ids = await seedCaptured(sb, 3);
    const csv = join(sb.home, 'refunds.csv');
    writeFileSync(csv, ['payment_id,amount', ...ids.map((id) => `${id},1500`)].join('\n'));
    const args = ['-p', 'shop', 'payments', 'refund', '--input', csv, '--yes', '-o', 'ndjson'];
    const first = await run(args, { env });
    expect(first.code, first.stderr).toBe(0);
    const journal = /journal (\S+\.ndjson)/.exec(first.stderr)![1]!;
    const key = readJournal(journal).records.find((r) => r.type === 'sent' && r.id === ids[1])!.key as string;
    // What a second machine did at the same time, on a service that took the same key twice.
    const again = await sb.api<{ id: string }>('POST', `/payments/${ids[1]}/refund`, {
      amount: 1500,
      notes: { payctl_key: key },
    });
    expect(again.status).toBe(200);
    const both = (await refundsOf(ids[1]!)).filter((r) => r.notes.payctl_key === key).map((r) => r.id);
    expect(both).toHaveLength(2);
    const before = await applied();

    for (const extra of [[], ['--recheck']]) {
      const res = await run([...args, ...extra], { env });
      expect(res.code, res.stderr).toBe(7);
      const dup = bulkRows(res.stdout).filter((r) => r.result === 'duplicate');
      expect(dup.map((r) => [r.payment_id, r.line])).toEqual([[ids[1], 3]]);
      expect(res.stderr).toMatch(new RegExp(`duplicate ${ids[1]} \\(line 3\\) refunds`));
      for (const id of both) expect(res.stderr).toContain(id);
      expect(res.stderr).toMatch(/1 duplicate/);
      expect(bulkRows(res.stdout).filter((r) => r.result !== 'duplicate')).toHaveLength(2);
    }
    expect(await applied()).toEqual(before); // nothing was sent

    // The single refund's rerun with that key says the same, exit 7, and sends nothing.
    const single = await run(['-p', 'shop', 'payments', 'refund', ids[1]!, '--idempotency-key', key, '--yes'], {
      env,
    });
    expect(single.code, single.stderr).toBe(7);
    expect(single.stderr).toMatch(/duplicate: 2 refunds carry this row's key/);
    for (const id of both) expect(single.stderr).toContain(id);
    expect(await applied()).toEqual(before);
  });

  it('two homes run the same input at once on --no-idempotency: each resume names exactly the payments refunded twice', async () => {
    sb = await sandboxForTest(['--no-idempotency', '--latency', '20']);
    const ids = await seedCaptured(sb, 12);
    const homes = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'payctl-machine-')));
    try {
      const envs = await Promise.all(homes.map((home) => addProfile(sb!, 'shop', { home })));
      const go = (env: { PAYCTL_HOME: string }) => {
        const csv = join(env.PAYCTL_HOME, 'refunds.csv');
        writeFileSync(csv, ['payment_id,amount', ...ids.map((id) => `${id},1000`)].join('\n'));
        return run(['-p', 'shop', 'payments', 'refund', '--input', csv, '--yes', '-o', 'ndjson'], {
          env,
          timeoutMs: 120_000,
        });
      };
      await Promise.all(envs.map(go));
      const counts = await applied();
      const twice = ids.filter((id) => counts[id]?.count === 2).sort();
      expect(ids.every((id) => [1, 2].includes(counts[id]?.count ?? 0))).toBe(true);
      expect(twice.length).toBeGreaterThan(0); // at once, with no header honoured, some were doubled
      for (const env of envs) {
        const resumed = await go(env);
        expect(resumed.code, resumed.stderr).toBe(7);
        const named = bulkRows(resumed.stdout)
          .filter((r) => r.result === 'duplicate')
          .map((r) => r.payment_id)
          .sort();
        expect(named).toEqual(twice);
      }
      expect(await applied()).toEqual(counts);
    } finally {
      for (const h of homes) rmSync(h, { recursive: true, force: true });
    }
  }, 180_000);
});
