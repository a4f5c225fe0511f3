import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addProfile,
  bulkCaptureArgs,
  expectCapturedOnce,
  readJournal,
  run,
  sandboxForTest,
  seedAuthorized,
  startPayctl,
  waitForFileText,
} from './harness';
import type { SandboxProcess } from './harness';

let sb: SandboxProcess | undefined;

/** Credentials the way a user has them: a stored profile (`-p local`), or the environment. */
async function credentials(
  source: 'profile' | 'env',
): Promise<{ env: Record<string, string | undefined>; flags: string[] }> {
  if (source === 'env') return { env: sb!.env, flags: [] };
  const env = { ...(await addProfile(sb!, 'local')), PAYCTL_TZ: 'Asia/Kolkata' };
  return { env, flags: ['-p', 'local'] };
}

describe.each(['profile', 'env'] as const)('signals with credentials from %s', (source) => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    'the first %s drains: requests in flight finish and are journaled, summary and resume hint, exit %i, lock released',
    async (sig, code) => {
      sb = await sandboxForTest(['--latency', '25']);
      const ids = await seedAuthorized(sb, 150);
      const { env, flags } = await credentials(source);
      const journal = join(sb.home, `${sig}.ndjson`);
      const args = [...flags, ...bulkCaptureArgs(sb, ids, journal), '--concurrency', '8'];
      const p = startPayctl(args, env);
      await p.rows(20);
      p.signal(sig);
      expect(await p.exit, p.err()).toBe(code);
      expect(p.err()).toMatch(/interrupted: \d+ done, .*; journal /);
      expect(p.err()).toMatch(
        new RegExp(`rerun \`payctl (-p \\S+ )?payments capture --journal ${journal} --yes\` to finish`),
      );
      expect(existsSync(`${journal}.lock`)).toBe(false);
      const { records, sent, outcomes } = readJournal(journal);
      expect(sent.length).toBeGreaterThan(0);
      expect(sent.filter((id) => !outcomes.has(id))).toEqual([]); // nothing abandoned in flight
      expect(records.filter((r) => r.type === 'outcome' && r.result !== 'done')).toEqual([]);
      const rows = p.out().trim().split('\n').length;
      expect(rows).toBe(outcomes.size);
      expect(rows).toBeLessThan(150);

      const rest = await run(args, { env });
      expect(rest.code, rest.stderr).toBe(0);
      await expectCapturedOnce(sb, 150);
    },
  );

  it('only a second signal exits at once', async () => {
    sb = await sandboxForTest(['--latency', '1500']);
    const ids = await seedAuthorized(sb, 12);
    const { env, flags } = await credentials(source);
    const journal = join(sb.home, 'twice.ndjson');
    const p = startPayctl(
      [...flags, 'payments', 'capture', ...ids, '--yes', '-o', 'ndjson', '--journal', journal, '--concurrency', '4'],
      env,
    );
    await waitForFileText(journal, '"sent"');
    p.signal('SIGINT');
    await new Promise((r) => setTimeout(r, 400));
    expect(p.running(), p.err()).toBe(true); // still waiting for the captures in flight
    p.signal('SIGINT');
    expect(await p.exit).toBe(130);
  });
});
