import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../../src/commands/sandbox/start';
import type { StartSandboxOptions } from '../../../../src/commands/sandbox/start';
import { UsageError } from '../../../../src/contract/errors';
import { fakeContext } from '../fake-context';

const start = (o: Partial<StartSandboxOptions> = {}): StartSandboxOptions => ({ port: '0', db: ':memory:', ...o });

/** Starts in process on a free loopback port; returns what it serves with once the run's signal stopped it. */
async function serve(opts: StartSandboxOptions) {
  const f = fakeContext();
  const stop = new AbortController();
  const result = await startSandbox(opts, { ...f.ctx, signal: stop.signal });
  if (result.type !== 'serve') throw new Error(`expected to serve, got ${result.type}`);
  const health = await fetch(`${result.lines.join('\n').match(/http:\/\/127\.0\.0\.1:\d+/)![0]}/v1/orders`);
  stop.abort();
  await result.until;
  return { record: result.record, lines: result.lines, status: health.status, store: await f.ctx.profiles() };
}

describe('sandbox start', () => {
  it('serves: the URLs and keys as a record; --db :memory: leaves the "sandbox" profile alone', async () => {
    const { record: info, status, store } = await serve(start());
    expect(info.base_url).toBe(`${info.origin}/v1`);
    expect(Object.keys(info)).toEqual(['base_url', 'origin', 'key_id', 'key_secret', 'webhook_secret', 'idempotency']);
    expect(info.idempotency).toBe(true);
    expect(status).toBe(401);
    expect(store.get('sandbox')).toBeUndefined();
  });

  it('lines for people; the default database writes the "sandbox" profile', async () => {
    const { lines, store } = await serve(start({ db: undefined }));
    expect(lines[0]).toMatch(/^sandbox listening on http:\/\/127\.0\.0\.1:\d+\/v1 /);
    expect(lines.at(-1)).toBe('profile "sandbox" written; try: payctl -p sandbox orders list');
    expect(store.get('sandbox')?.base_url).toBe(lines[0]!.split(' ')[3]);
  });

  it('--no-idempotency: the record and a line say the header is ignored', async () => {
    const { record, lines } = await serve(start({ idempotency: false }));
    expect(record.idempotency).toBe(false);
    expect(lines).toContain('X-Refund-Idempotency is ignored (--no-idempotency)');
    expect((await serve(start())).lines.join('\n')).not.toContain('X-Refund-Idempotency');
  });

  it.each([
    ['--port over 65535', { port: '70000' }, /--port/],
    ['--fault-rate over 1', { faultRate: '1.5' }, /--fault-rate must be a probability/],
    ['a short --webhook-secret', { webhookSecret: 'short' }, /--webhook-secret must be 8 to 256/],
    ['--webhook that is not a URL', { webhook: 'hooks' }, /--webhook/],
    ['--capture-window that is not a duration', { captureWindow: 'later' }, /--capture-window/],
    ['--fee-rate over 100', { feeRate: '101' }, /--fee-rate must be a percentage from 0 to 100/],
    ['--fee-rate finer than a basis point', { feeRate: '2.555' }, /at most two decimals: got "2.555"/],
  ])('%s: a usage error before anything is served', async (_name, extra, message) => {
    const f = fakeContext();
    const started = startSandbox(start(extra), f.ctx);
    await expect(started).rejects.toThrow(UsageError);
    await expect(startSandbox(start(extra), f.ctx)).rejects.toThrow(message);
  });
});
