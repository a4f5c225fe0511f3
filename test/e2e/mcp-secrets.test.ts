import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ECHO, echoServiceForFile } from './echo-service';
import { registerSecret, run, scratchDir } from './harness';
import { call, refundByToken, structured, textOf, withMcp } from './mcp-client';

const service = echoServiceForFile();
const KEY_ID = 'rzp_test_EchoKey0001';

/** A new secret for each source, and every form of it that can travel. */
function secretForms() {
  const secret = `sk_${randomBytes(12).toString('hex')}`;
  const pair = `${KEY_ID}:${secret}`;
  registerSecret(secret, KEY_ID);
  return { secret, forms: [secret, pair, Buffer.from(pair).toString('base64')] };
}

function expectNoSecret(text: string, forms: string[], where: string) {
  for (const form of forms) expect(text.includes(form), `${where} holds ${form.slice(0, 6)}…`).toBe(false);
}

/** Each way a secret reaches payctl: the environment, a profile file, a profile's secret command. */
const SOURCES: [string, (home: string, secret: string) => Promise<{ env: Record<string, string>; args: string[] }>][] =
  [
    [
      'environment credentials',
      async (home, secret) => ({
        env: { PAYCTL_HOME: home, PAYCTL_KEY_ID: KEY_ID, PAYCTL_KEY_SECRET: secret, PAYCTL_BASE_URL: service.baseUrl },
        args: [],
      }),
    ],
    [
      'a stored profile',
      async (home, secret) => {
        const env = { PAYCTL_HOME: home };
        const added = await run(
          ['profile', 'add', 'echo', '--key-id', KEY_ID, '--key-secret-stdin', '--base-url', service.baseUrl],
          { env, input: secret },
        );
        expect(added.code, added.stderr).toBe(0);
        return { env, args: ['-p', 'echo'] };
      },
    ],
    [
      'a profile with --key-secret-command',
      async (home, secret) => {
        const env = { PAYCTL_HOME: home };
        const file = join(home, 'vault.txt');
        writeFileSync(file, `${secret}\n`, { mode: 0o600 });
        const added = await run(
          [
            'profile',
            'add',
            'vault',
            '--key-id',
            KEY_ID,
            '--base-url',
            service.baseUrl,
            '--key-secret-command',
            `cat ${file}`,
          ],
          { env },
        );
        expect(added.code, added.stderr).toBe(0);
        return { env, args: ['-p', 'vault'] };
      },
    ],
  ];

describe.each(SOURCES)('secrets echoed by the service, with %s', (_name, setUp) => {
  let home: string;
  let forms: string[];
  let env: Record<string, string>;
  let args: string[];
  const dir = scratchDir('payctl-echo-');
  beforeAll(async () => {
    home = join(dir, 'home');
    mkdirSync(home, { mode: 0o700 });
    const s = secretForms();
    forms = s.forms;
    ({ env, args } = await setUp(home, s.secret));
    env.PAYCTL_MAX_RETRIES = '0';
  });

  it('never reach the assistant: tool results, tool errors, and the audit log', async () => {
    await withMcp([...args, '--allow-writes'], env, async (client) => {
      const error = await call(client, 'payments_get', { payment_id: ECHO.error });
      expect(error.isError).toBe(true);
      expect(textOf(error)).toMatch(/is not allowed/);
      const notes = await call(client, 'payments_get', { payment_id: ECHO.notes });
      expect(structured(notes).data).toMatchObject({ notes: { secret: '[redacted]', pair: '[redacted]' } });
      const html = await call(client, 'payments_get', { payment_id: ECHO.html });
      expect(html.isError).toBe(true);
      const refund = await refundByToken(client, { payment_id: ECHO.refund, amount: 100 });
      expect(structured(refund)).toMatchObject({ outcome: 'not done' });
      expect(textOf(refund)).toMatch(/refunds are off for the key secret \[redacted\]/);
      for (const res of [error, notes, html, refund]) expectNoSecret(JSON.stringify(res), forms, 'a tool result');
    });
    const audit = readFileSync(join(home, 'mcp-audit.ndjson'), 'utf8');
    expect(audit).toMatch(/refunds are off for the key secret \[redacted\]/);
    expectNoSecret(audit, forms, 'the audit log');
  });

  it("never reach the CLI's own output and errors", async () => {
    for (const [id, code] of [
      [ECHO.error, 1],
      [ECHO.notes, 0],
      [ECHO.html, 5],
    ] as const) {
      const res = await run([...args, 'payments', 'get', id, '-o', 'json'], { env });
      expect([res.code, id]).toEqual([code, id]);
      expectNoSecret(res.stdout + res.stderr, forms, `payctl payments get ${id}`);
    }
    const noted = await run([...args, 'payments', 'get', ECHO.notes, '-o', 'json'], { env });
    expect(JSON.parse(noted.stdout)).toMatchObject({ notes: { secret: '[redacted]' } });
    const file = join(home, 'payment.json');
    const saved = await run([...args, 'payments', 'get', ECHO.notes, '--out', file], { env });
    expect(saved.code, saved.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ notes: { pair: '[redacted]' } });
    expectNoSecret(readFileSync(file, 'utf8'), forms, 'an --out file');
    const refused = await run([...args, 'payments', 'refund', ECHO.refund, '--amount', '100', '--yes'], { env });
    expect(refused.stderr).toMatch(/\[redacted\]/);
    expectNoSecret(refused.stdout + refused.stderr, forms, 'payctl payments refund');
  });
});
