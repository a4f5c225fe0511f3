import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { run, sandboxForFile } from './harness';

const sb = sandboxForFile();

const MISSING = 'pay_00000000000000';
const THEIRS =
  'the service says: The id provided does not exist (BAD_REQUEST_ERROR, field id, reason input_validation_failed)';

/** A loopback port nothing listens on: bound by the system, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('a service refusal is one line in the user terms', () => {
  it.each([
    [['payments', 'get', MISSING], `payctl: no payment ${MISSING} on this account; ${THEIRS}\n`],
    [
      ['payments', 'capture', MISSING, '--yes'],
      `payctl: cannot capture payment ${MISSING}: no payment ${MISSING} on this account; ${THEIRS}\n`,
    ],
    [
      ['payments', 'refund', MISSING, '--amount', '100', '--yes'],
      `payctl: cannot refund payment ${MISSING}: no payment ${MISSING} on this account; ${THEIRS}\n`,
    ],
  ])('payctl %j', async (args, stderr) => {
    const res = await run(args, { env: sb.env });
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(stderr);
  });

  it('a refusal for the payment state names the operation and the id, then the service words', async () => {
    const { payment_ids } = await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 1 });
    const id = payment_ids[0]!;
    expect((await run(['payments', 'capture', id, '--yes'], { env: sb.env })).code).toBe(0);
    const again = await run(['payments', 'capture', id, '--amount', '50000', '--currency', 'INR', '--yes'], {
      env: sb.env,
    });
    expect(again.code).toBe(1);
    expect(again.stderr.trimEnd().split('\n')).toEqual([
      `payctl: cannot capture payment ${id}: the service says: This payment has already been captured (BAD_REQUEST_ERROR, reason request_rejected)`,
    ]);
  });
});

describe('a stopped local sandbox', () => {
  it('a stored profile pointing at it fails at once, asking whether the sandbox is running (exit 5)', async () => {
    const port = await closedPort();
    const env = { PAYCTL_HOME: sb.home, PAYCTL_TZ: 'Asia/Kolkata' };
    const add = await run(
      [
        'profile',
        'add',
        'local',
        '--key-id',
        'rzp_test_stopped1',
        '--base-url',
        `http://127.0.0.1:${port}/v1`,
        '--key-secret-stdin',
      ],
      { env, input: 'not-a-real-secret-1' },
    );
    expect(add.code, add.stderr).toBe(0);
    const started = Date.now();
    const res = await run(['--profile', 'local', 'payments', 'list'], { env });
    const ms = Date.now() - started;
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('after 1 attempt');
    expect(res.stderr).toContain('is `payctl sandbox start` running?');
    expect(res.stderr).not.toMatch(/retrying/);
    // One attempt and no backoff: well under the seconds seven attempts took.
    expect(ms).toBeLessThan(3_000);
  });

  it('a write to it says it never reached the service', async () => {
    const port = await closedPort();
    const res = await run(['payments', 'capture', MISSING, '--amount', '100', '--currency', 'INR', '--yes'], {
      env: { ...sb.env, PAYCTL_BASE_URL: `http://localhost:${port}/v1` },
    });
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('nothing was applied');
    expect(res.stderr).toContain('is `payctl sandbox start` running?');
  });
});
