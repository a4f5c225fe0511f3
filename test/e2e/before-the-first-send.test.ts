import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addProfile, run, sandboxForFile, seedCaptured } from './harness';

/**
 * Whatever would fail at send time fails before the first send instead: a row breaking a rule of the
 * service, an NDJSON object with a key given twice, a directory payctl cannot write. Exit 2, one line
 * naming the row or the path, nothing sent. And a secret command is done when it exits.
 */
const sb = sandboxForFile();
let env: { PAYCTL_HOME: string };
beforeAll(async () => {
  env = await addProfile(sb, 'shop');
});
const writes = async () => (await sb.admin<{ writes: { refunds: number } }>('GET', '/stats')).writes.refunds;
const oneLine = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at /);

describe('every rule before the first send', () => {
  it('an NDJSON object with a repeated key is refused naming the line and the key; nothing is sent', async () => {
    const ids = await seedCaptured(sb, 2);
    const input = join(sb.home, 'twice.ndjson');
    writeFileSync(
      input,
      `{"payment_id":"${ids[0]}","amount":100}\n{"payment_id":"${ids[1]}","amount":100,"amount":90000}\n`,
    );
    const before = await writes();
    for (const extra of [[], ['--dry-run']]) {
      const res = await run(['-p', 'shop', 'payments', 'refund', '--input', input, '--yes', ...extra], { env });
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toMatch(/line 2: key "amount" is given twice/);
      expect(res.stderr).toMatch(/nothing was sent/);
    }
    expect(await writes()).toBe(before);
  });

  it('a row with 15 note columns (payctl adds its key note: at most 14) is exit 2 in the check and the dry run', async () => {
    const ids = await seedCaptured(sb, 3);
    const notes = Array.from({ length: 15 }, (_, i) => `note.n${i}`);
    const rows = ids.map((id, i) => [id, '100', ...notes.map((_, j) => (i === 1 || j < 14 ? `v${j}` : ''))]);
    const input = join(sb.home, 'notes.csv');
    writeFileSync(input, [['payment_id', 'amount', ...notes], ...rows].map((r) => r.join(',')).join('\n'));
    const before = await writes();
    for (const extra of [[], ['--dry-run']]) {
      const res = await run(['-p', 'shop', 'payments', 'refund', '--input', input, '--yes', ...extra], { env });
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toMatch(/line 3: a refund holds at most 15 notes .*give at most 14 \(got 15\)/);
      expect(res.stderr).not.toMatch(/line [24]:/);
    }
    const flags = [
      '-p',
      'shop',
      'payments',
      'refund',
      ids[0]!,
      ids[2]!,
      '--yes',
      ...notes.flatMap((n) => ['--note', `${n.slice(5)}=x`]),
    ];
    const byFlag = await run(flags, { env });
    expect(byFlag.code, byFlag.stderr).toBe(2);
    expect(byFlag.stderr).toMatch(/--note: a refund holds at most 15 notes/);
    expect(await writes()).toBe(before);
  });
});

describe('a directory payctl cannot write is exit 2 naming it, before anything is sent', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'payctl-ro-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  /** A read-only tmpfs mounted at a new directory; undefined where mounting is not possible. */
  let readOnly: string | undefined;
  beforeAll(() => {
    const dir = join(scratch, 'ro');
    mkdirSync(dir);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro', 'tmpfs', dir], { stdio: 'ignore' });
      readOnly = dir;
    } catch {
      readOnly = undefined;
    }
  });
  afterAll(() => {
    if (readOnly) execFileSync('umount', [readOnly], { stdio: 'ignore' });
  });

  /** Under a regular file: no user, root included, can make a directory there. */
  const underFile = () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, 'x');
    return join(file, 'home');
  };

  it('a PAYCTL_HOME under a regular file: the bulk refund names the journal directory (exit 2, nothing sent)', async () => {
    const ids = await seedCaptured(sb, 1);
    const before = await writes();
    const res = await run(['payments', 'refund', ids[0]!, '--concurrency', '1', '--yes'], {
      env: { ...sb.env, PAYCTL_HOME: underFile() },
    });
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(
      /the journal directory .*a-file\/home\/journals cannot be written \(ENOTDIR\): nothing was sent/,
    );
    expect(await writes()).toBe(before);
  });

  it('profile add into a PAYCTL_HOME under a regular file names the config directory (exit 2)', async () => {
    const home = underFile();
    const res = await run(
      ['profile', 'add', 'x', '--key-id', sb.keyId, '--key-secret-stdin', '--base-url', sb.baseUrl],
      {
        env: { PAYCTL_HOME: home },
        input: sb.keySecret,
      },
    );
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain(`the config directory ${home} cannot be written (ENOTDIR)`);
    oneLine(res.stderr);
  });

  it('a read-only mount as PAYCTL_HOME, --journal and --out directory: exit 2 naming each, nothing sent', async (ctx) => {
    if (!readOnly) return ctx.skip(); // needs: mount (root, or a user namespace) for a read-only tmpfs
    const ids = await seedCaptured(sb, 1);
    const before = await writes();
    const home = await run(['payments', 'refund', ids[0]!, '--concurrency', '1', '--yes'], {
      env: { ...sb.env, PAYCTL_HOME: readOnly },
    });
    expect(home.code, home.stderr).toBe(2);
    expect(home.stderr).toMatch(/the journal directory .*\/ro\/journals cannot be written \(EROFS\)/);
    const journal = await run(
      ['-p', 'shop', 'payments', 'refund', ids[0]!, '--journal', join(readOnly, 'j.ndjson'), '--yes'],
      { env },
    );
    expect(journal.code, journal.stderr).toBe(2);
    expect(journal.stderr).toMatch(/the journal .*\/ro\/j\.ndjson cannot be written \(EROFS\): nothing was sent/);
    oneLine(journal.stderr);
    const out = await run(['-p', 'shop', 'payments', 'list', '--out', join(readOnly, 'p.csv')], { env });
    expect(out.code, out.stderr).toBe(2);
    expect(out.stderr).toMatch(/\/ro is not writable/);
    expect(await writes()).toBe(before);
  });
});

describe('a key secret command', () => {
  it('is done when it exits, though a process it started keeps stdout open', async () => {
    const home = mkdtempSync(join(tmpdir(), 'payctl-agent-'));
    try {
      const script = join(home, 'agent.sh');
      // A secret manager that prints the secret and leaves its agent running, holding the pipe.
      writeFileSync(script, `cat "${join(home, 'secret')}"\n(sleep 30; echo late) 2>/dev/null &\n`);
      writeFileSync(join(home, 'secret'), `${sb.keySecret}\n`, { mode: 0o600 });
      const add = await run(
        [
          'profile',
          'add',
          'agent',
          '--key-id',
          sb.keyId,
          '--base-url',
          sb.baseUrl,
          '--key-secret-command',
          `sh ${script}`,
        ],
        { env: { PAYCTL_HOME: home } },
      );
      expect(add.code, add.stderr).toBe(0);
      const started = Date.now();
      const res = await run(['-p', 'agent', 'payments', 'list', '--limit', '1', '-o', 'json'], {
        env: { PAYCTL_HOME: home },
        timeoutMs: 20_000,
      });
      expect(res.code, res.stderr).toBe(0);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
