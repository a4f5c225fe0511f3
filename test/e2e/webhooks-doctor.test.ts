import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addProfile, run, sandboxForFile } from './harness';

// `webhooks doctor` against the two handlers in test/fixtures/webhook-handlers (one right, one that
// re-serializes before verifying and applies repeats), and `webhooks verify` on a fixture of each cause.

const HANDLERS = fileURLToPath(new URL('../fixtures/webhook-handlers/', import.meta.url));
const VERIFY = fileURLToPath(new URL('../fixtures/webhook-verify/', import.meta.url));

const sb = sandboxForFile();
let env: Record<string, string>;
let secret = '';
const children: ChildProcess[] = [];

/** Starts a fixture handler with the sandbox's webhook secret (or `key`) in its environment; its URL. */
async function handler(file: string, key = secret): Promise<string> {
  const child = spawn(process.execPath, [`${HANDLERS}${file}`], {
    env: { ...process.env, PAYCTL_WEBHOOK_SECRET: key },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim())));
}

const doctor = (url: string, out: string[] = []) =>
  run(
    [
      '-p',
      'dev',
      'webhooks',
      'doctor',
      '--url',
      url,
      '--count-cmd',
      `"${process.execPath}" "${HANDLERS}count.mjs" ${url.replace(/\/webhooks$/, '')}`,
      ...out,
    ],
    { env },
  );

beforeAll(async () => {
  env = await addProfile(sb, 'dev');
  const printed = await run(['-p', 'dev', 'webhooks', 'listen', '--print-secret'], { env });
  secret = printed.stdout.trim().split('=')[1]!;
});
afterAll(() => {
  for (const child of children) child.kill();
});

describe('webhooks doctor', () => {
  it('passes the correct handler on every check', async () => {
    const result = await doctor(await handler('correct.mjs'), ['-o', 'table']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('score 9/9');
    const lines = result.stderr.split('\n').filter((l) => /^(PASS|FAIL|SKIP) /.test(l));
    expect(lines).toHaveLength(9);
    expect(lines.every((l) => l.startsWith('PASS'))).toBe(true);
  });

  it("names the re-serializing handler's one cause, at the first check, and scores nothing after it", async () => {
    const result = await doctor(await handler('reserializing.mjs'), ['-o', 'json']);
    expect(result.code).toBe(1);
    const checks = JSON.parse(result.stdout) as Array<{ check: string; result: string; why: string }>;
    expect(checks).toEqual([
      {
        check: 'valid delivery accepted',
        result: 'fail',
        why: expect.stringMatching(
          /verifies a re-serialized body .*instead of the raw bytes; they first differ at byte \d+/,
        ),
      },
    ]);
    // Only that cause: not the wrong secret, not de-duplication, not retries.
    expect(result.stdout + result.stderr).not.toMatch(/wrong secret|key secret|applied \d+ times|retried/);
    expect(result.stderr).toMatch(/score 0\/1: 1 failed; stopped there, 8 later checks not run/);
  });

  it('a handler with another secret: the first check fails, naming the secret, and nothing after it runs', async () => {
    const other = await handler('correct.mjs', 'whsec_not_the_sandbox_secret');
    const result = await doctor(other, ['-o', 'json']);
    expect(result.code).toBe(1);
    const checks = JSON.parse(result.stdout) as Array<{ check: string; result: string; why: string }>;
    expect(checks.map((c) => [c.check, c.result])).toEqual([['valid delivery accepted', 'fail']]);
    expect(checks[0]!.why).toMatch(/raw body with the webhook secret .*--print-secret/);
    expect(checks[0]!.why).not.toMatch(/re-serialized/);
  });

  it('says at once when nothing answers at the URL', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const { port } = closed.address() as AddressInfo;
    await new Promise((r) => closed.close(r));
    const url = `http://127.0.0.1:${port}/webhooks`;
    const result = await run(['-p', 'dev', 'webhooks', 'doctor', '--url', url], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/did not answer \(ECONNREFUSED\): start your handler/);
  });
});

describe('webhooks verify', () => {
  const cases = JSON.parse(readFileSync(`${VERIFY}cases.json`, 'utf8'));
  /** The fixture's key secret stored as profile "fixture", so verify can recognise it. */
  let fixtureEnv: Record<string, string>;
  beforeAll(async () => {
    fixtureEnv = await addProfile({ ...sb, keySecret: cases.key_secret }, 'fixture');
  });
  const verify = (name: string, extra: string[] = [], input?: string) =>
    run(
      [
        '-p',
        'fixture',
        'webhooks',
        'verify',
        '--signature',
        cases[name].signature,
        ...extra,
        `${VERIFY}${cases[name].file}`,
      ],
      { env: fixtureEnv, input },
    );
  const withFile = ['--secret-file', `${VERIFY}${cases.secret_file}`];

  it('exit 0 when the signature matches the raw bytes', async () => {
    const ok = await verify('match', withFile);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toMatch(/signature OK/);
  });

  it.each([
    ['reserialized', /re-serialized.*first differ at byte \d+ .*received "\/2026.*sends "\\\\\/2026/],
    ['trailing_newline', /trailing newline/],
    ['base64', /base64 where the service sends hex/],
    ['key_secret_signed', /signed with the key secret .*instead of the webhook secret/],
    ['wrong_secret', /^payctl: signature does not match: wrong secret/],
  ])('%s: exit 1 with one line naming the cause', async (name, cause) => {
    const result = await verify(name, withFile);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(cause);
  });

  it('takes the secret from PAYCTL_WEBHOOK_SECRET or stdin, never argv; the body from stdin with -', async () => {
    const secretText = readFileSync(`${VERIFY}${cases.secret_file}`, 'utf8');
    const fromStdin = await verify('match', [], secretText);
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    const body = readFileSync(`${VERIFY}${cases.match.file}`, 'utf8');
    const piped = await run(['webhooks', 'verify', '--signature', cases.match.signature, '-'], {
      env: { ...fixtureEnv, PAYCTL_WEBHOOK_SECRET: secretText.trim() },
      input: body,
    });
    expect(piped.code, piped.stderr).toBe(0);
    const unknown = await run(['webhooks', 'verify', '--secret', 'x', '--signature', 'y'], { env: fixtureEnv });
    expect(unknown.code).toBe(2);
  });
});
