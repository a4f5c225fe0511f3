import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertNoSecret, registerSecret, run, sandboxForFile } from './harness';

// Every e2e run is already scanned for the key secret by the harness; these runs make sure the risky
// paths are among them: --debug traces, profile listings, journals, and errors about the key itself.

const sb = sandboxForFile();
const PROFILE_SECRET = 'ps_Zr8kQm2VwX9tLb4N';

beforeAll(async () => {
  registerSecret(PROFILE_SECRET, 'rzp_test_secretscan');
});

describe('secrets never appear in what payctl writes', () => {
  it('the scanner itself catches a leak, in plain and Basic-auth form', () => {
    expect(() => assertNoSecret(`key ${sb.keySecret} here`, 'a planted line')).toThrow(/leaked/);
    expect(() =>
      assertNoSecret(`Basic ${Buffer.from(`${sb.keyId}:${sb.keySecret}`).toString('base64')}`, 'a planted header'),
    ).toThrow(/leaked/);
  });

  it('--debug traces requests without the secret or the Authorization value', async () => {
    const { payment_ids } = await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 1 });
    for (const args of [
      ['payments', 'get', payment_ids[0]!],
      ['--yes', 'payments', 'capture', payment_ids[0]!],
      ['orders', 'create', '--amount', '100', '--currency', 'INR'],
    ]) {
      const res = await run(['--debug', '-o', 'json', ...args], { env: sb.env });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toMatch(/\[debug\] (GET|POST) /);
    }
  });

  it('a rejected key is reported without echoing it', async () => {
    const wrong = 'wrong_secret_Xy7Qp3Lm9';
    registerSecret(wrong, sb.keyId);
    const res = await run(['--debug', 'payments', 'get', 'pay_00000000000001'], {
      env: { ...sb.env, PAYCTL_KEY_SECRET: wrong },
    });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/authentication failed/);
  });

  it('profiles: the secret is stored 0600 and shown masked everywhere', async () => {
    const env = { PAYCTL_HOME: sb.home };
    const add = await run(
      [
        'profile',
        'add',
        'scan',
        '--key-id',
        'rzp_test_secretscan',
        '--base-url',
        'https://api.example.com/v1',
        '--key-secret-stdin',
      ],
      { env, input: PROFILE_SECRET },
    );
    expect(add.code, add.stderr).toBe(0);
    for (const args of [
      ['profile', 'list'],
      ['profile', 'show', 'scan'],
      ['profile', 'list', '-o', 'json'],
      ['profile', 'show', 'scan', '-o', 'csv'],
    ]) {
      const res = await run(args, { env });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toMatch(/ps_Z.*|\*\*\*/);
    }
    const config = readdirSync(sb.home, { recursive: true })
      .map(String)
      .find((f) => f.endsWith('config.json'))!;
    expect(statSync(join(sb.home, config)).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(sb.home, config), 'utf8')).toContain(PROFILE_SECRET); // there, and only there
  });

  it('a bulk journal holds outcomes, not credentials', async () => {
    const { payment_ids } = await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 3 });
    const journal = join(sb.home, 'scan.journal');
    const res = await run(['payments', 'capture', '--input', '-', '--yes', '--journal', journal], {
      env: sb.env,
      input: payment_ids.join('\n'),
    });
    expect(res.code, res.stderr).toBe(0);
    const text = readFileSync(journal, 'utf8');
    expect(text).toContain(payment_ids[0]);
    assertNoSecret(text, 'the journal');
  });

  it('a plain-http base URL is refused unless it is loopback', async () => {
    const env = { ...sb.env, PAYCTL_BASE_URL: undefined };
    const remote = await run(['--base-url', 'http://api.example.com/v1', 'payments', 'get', 'pay_00000000000001'], {
      env,
    });
    expect(remote.code).toBe(2);
    expect(remote.stderr).toMatch(/https/);
    const local = await run(['--base-url', sb.baseUrl, '-o', 'json', 'orders', 'list'], { env });
    expect(local.code, local.stderr).toBe(0);
  });
});
