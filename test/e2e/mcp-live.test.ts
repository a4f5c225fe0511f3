import { describe, expect, it } from 'vitest';
import { run, scratchDir } from './harness';
import { withMcp } from './mcp-client';

/** Nothing listens here: a command that got as far as sending would fail with a network error (exit 5). */
const NOWHERE = 'http://127.0.0.1:9/v1';
const LIVE_ID = 'rzp_live_Kx8pQ2mZ7vLd3n';
const SECRET = 'live-secret-not-sent-0001';

describe('a live key is live wherever it comes from', () => {
  const home = scratchDir('payctl-live-');
  const stored = { PAYCTL_HOME: home };
  const fromEnv = { PAYCTL_HOME: home, PAYCTL_KEY_ID: LIVE_ID, PAYCTL_KEY_SECRET: SECRET, PAYCTL_BASE_URL: NOWHERE };

  it('a profile holding an rzp_live_ key, added without --live, is shown and treated as live', async () => {
    const added = await run(
      ['profile', 'add', 'shop', '--key-id', LIVE_ID, '--key-secret-stdin', '--base-url', NOWHERE],
      {
        env: stored,
        input: SECRET,
      },
    );
    expect(added.code, added.stderr).toBe(0);
    const shown = await run(['profile', 'show', 'shop', '-o', 'json'], { env: stored });
    expect(JSON.parse(shown.stdout)).toMatchObject({ live: true });

    const mcp = await run(['-p', 'shop', 'mcp', '--allow-writes'], { env: stored });
    expect(mcp.code).toBe(2);
    expect(mcp.stderr).toMatch(/profile shop uses a LIVE key: .*--allow-live shop/);
    const wrong = await run(['-p', 'shop', 'mcp', '--allow-writes', '--allow-live', 'other'], { env: stored });
    expect(wrong.code).toBe(2);

    // The CLI's own rule for a live target: a bulk run needs the profile's name typed, or --confirm-live.
    const bulk = await run(['-p', 'shop', 'payments', 'refund', 'pay_29QQoUBi66xm2f', 'pay_29QQoUBi66xm2g', '--yes'], {
      env: stored,
    });
    expect(bulk.code, bulk.stderr).toBe(2);
    expect(bulk.stderr).toMatch(/live profile.*--confirm-live shop/);
  });

  it('PAYCTL_KEY_ID=rzp_live_… from the environment is live too', async () => {
    const mcp = await run(['mcp', '--allow-writes'], { env: fromEnv });
    expect(mcp.code).toBe(2);
    expect(mcp.stderr).toMatch(/environment uses a LIVE key: .*--allow-live environment/);
    const bulk = await run(['payments', 'refund', 'pay_29QQoUBi66xm2f', 'pay_29QQoUBi66xm2g', '--yes'], {
      env: fromEnv,
    });
    expect(bulk.code, bulk.stderr).toBe(2);
    expect(bulk.stderr).toMatch(/live/);
  });

  it('named with --allow-live, the server offers writes and says LIVE', async () => {
    await withMcp(['--allow-writes', '--allow-live', 'environment'], fromEnv, async (client, stderr) => {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('payments_refund');
      expect(stderr()).toMatch(/for environment, LIVE/);
    });
    // Read-only needs no naming: nothing it offers can move money.
    await withMcp([], fromEnv, async (client) => {
      expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('payments_refund');
    });
  });
});
