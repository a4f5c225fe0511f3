import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox';

// The service counts a delivery as failed when no 2xx comes within 5 seconds, and retries it.

const held: Array<() => void> = [];
const server = createServer((req, res) => {
  req.resume();
  held.push(() => res.writeHead(200).end());
});
afterAll(async () => {
  for (const release of held) release();
  await new Promise((r) => server.close(r));
});

describe('webhook deliveries', () => {
  it('an answer later than 5 s is a failed attempt, retried', { timeout: 20_000 }, async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`;
    const sb = await startSandbox({ db: ':memory:', webhook: url });
    try {
      const auth = 'Basic ' + Buffer.from(`${sb.keyId}:${sb.keySecret}`).toString('base64');
      const admin = (path: string, body?: unknown) =>
        fetch(`${sb.origin}/_sandbox${path}`, {
          method: body ? 'POST' : 'GET',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: body ? JSON.stringify(body) : undefined,
        }).then((r) => r.json() as Promise<{ items: Array<Record<string, unknown>> }>);
      const began = Date.now();
      await admin('/seed', { authorized: 1 });
      await expect
        .poll(async () => (await admin('/webhooks/deliveries', {})).items.length, { timeout: 12_000, interval: 200 })
        .toBeGreaterThanOrEqual(1);
      const [first] = (await admin('/webhooks/deliveries', {})).items;
      expect(first).toMatchObject({ attempt: 1, status: null, error: 'no answer within 5s', state: 'retrying' });
      expect(Number(first!.latency_ms)).toBeGreaterThanOrEqual(4_900);
      expect(Date.now() - began).toBeLessThan(9_000);
    } finally {
      for (const release of held.splice(0)) release();
      await sb.close();
    }
  });
});
