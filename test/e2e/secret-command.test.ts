import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertNoSecret, profileAddArgs, run, runProcess, sandboxForFile } from './harness';

// A profile whose key secret lives in a secret manager: a script outside payctl's directories stands
// for `op read` / `pass` / `vault kv get`, and counts how often it is asked.

const sb = sandboxForFile();
const vault = mkdtempSync(join(tmpdir(), 'payctl-vault-'));
const home = mkdtempSync(join(tmpdir(), 'payctl-vaulted-home-'));
const asked = () => readFileSync(join(vault, 'asked'), 'utf8').split('\n').filter(Boolean).length;
const env = () => ({ PAYCTL_HOME: home, PAYCTL_TZ: 'Asia/Kolkata' });

beforeAll(async () => {
  writeFileSync(join(vault, 'secret'), `${sb.keySecret}\n`, { mode: 0o600 });
  writeFileSync(join(vault, 'asked'), '');
  writeFileSync(
    join(vault, 'vault.sh'),
    `echo asked >> "${join(vault, 'asked')}"\necho "vault: item unlocked" >&2\ncat "${join(vault, 'secret')}"\n`,
  );
  const add = await run(
    [
      'profile',
      'add',
      'vaulted',
      '--key-id',
      sb.keyId,
      '--base-url',
      sb.baseUrl,
      '--key-secret-command',
      `sh ${join(vault, 'vault.sh')}`,
    ],
    { env: env() },
  );
  expect(add.code, add.stderr).toBe(0);
});
afterAll(async () => {
  rmSync(vault, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

/** Every file under payctl's config and state directories (PAYCTL_HOME holds both). */
function everyFile(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? everyFile(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe('a key secret from a command', () => {
  it('profile show says where the secret comes from; the profile holds the command, not the secret', async () => {
    const show = await run(['profile', 'show', 'vaulted', '-o', 'json'], { env: env() });
    expect(show.code, show.stderr).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({
      secret_from: 'command',
      key_secret_command: `sh ${join(vault, 'vault.sh')}`,
    });
    const table = await run(['profile', 'show', 'vaulted', '-o', 'table'], { env: env() });
    expect(table.stdout).toContain('from command: sh ');
    expect(asked()).toBe(0); // showing it does not ask the secret manager
  });

  // Through the binary: the secret manager's stderr reaches the user because it inherits payctl's fd 2.
  it('works for a read, a refund and a bulk run, asking once per process, its stderr passed through', async () => {
    const list = await runProcess(['-p', 'vaulted', '-o', 'json', 'orders', 'list'], { env: env() });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr).toContain('vault: item unlocked');
    expect(asked()).toBe(1);

    const [id] = (await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 1 })).payment_ids;
    const p = await sb.api<{ amount: number }>('GET', `/payments/${id}`);
    await sb.api('POST', `/payments/${id}/capture`, { amount: p.body.amount, currency: 'INR' });
    const refund = await runProcess(
      ['-p', 'vaulted', '-o', 'json', '--yes', 'payments', 'refund', id!, '--amount', '900'],
      {
        env: env(),
      },
    );
    expect(refund.code, refund.stderr).toBe(0);
    expect(JSON.parse(refund.stdout)).toMatchObject({ entity: 'refund', amount: 900 });
    expect(asked()).toBe(2);

    const ids = (await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 20 })).payment_ids;
    const bulk = await runProcess(['-p', 'vaulted', 'payments', 'capture', '--input', '-', '--yes'], {
      env: env(),
      input: ids.join('\n'),
    });
    expect(bulk.code, bulk.stderr).toBe(0);
    expect(asked()).toBe(3);
    for (const pid of ids)
      expect((await sb.api<{ status: string }>('GET', `/payments/${pid}`)).body.status).toBe('captured');
  });

  it('the secret is in no file under the config and state directories', () => {
    const files = everyFile(home);
    expect(files.some((f) => f.endsWith('config.json'))).toBe(true);
    expect(files.length).toBeGreaterThan(1); // the bulk run's journal is among them
    for (const f of files) assertNoSecret(readFileSync(f, 'latin1'), f);
    expect(readFileSync(join(home, 'config.json'), 'utf8')).not.toContain(sb.keySecret);
  });

  it.each([
    ['exits non-zero', 'echo "vault: locked" >&2; exit 2', /exited with status 2/],
    ['prints nothing', 'true', /printed nothing/],
  ])('a command that %s is one line, exit 3, nothing sent', async (_what, command, message) => {
    const name = `broken${_what.length}`;
    const add = await run(
      ['profile', 'add', name, '--key-id', sb.keyId, '--base-url', sb.baseUrl, '--key-secret-command', command],
      {
        env: env(),
      },
    );
    expect(add.code, add.stderr).toBe(0);
    const [id] = (await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 1 })).payment_ids;
    const res = await run(['-p', name, '--yes', 'payments', 'capture', id!], { env: env() });
    expect(res.code).toBe(3);
    const lines = res.stderr
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('vault:'));
    expect(lines).toEqual([expect.stringMatching(message)]);
    expect(lines[0]).toMatch(new RegExp(`^payctl: the key secret command of profile ${name} .*nothing was sent`));
    expect((await sb.api<{ status: string }>('GET', `/payments/${id}`)).body.status).toBe('authorized');
  });

  it('one source for one secret: --key-secret-command with --key-secret-stdin is exit 2', async () => {
    const res = await run(profileAddArgs(sb, 'both', sb.baseUrl, '--key-secret-command', 'true'), {
      env: env(),
      input: 'x',
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/pick one/);
  });
});
