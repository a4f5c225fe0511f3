import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox';
import { Store } from '../../../src/sandbox/store';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A webhook receiver on loopback that answers slowly, refusing the first delivery of each event when asked. */
async function receiver(refuseFirst: boolean) {
  const received: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['x-razorpay-event-id']);
      const first = !received.includes(id);
      received.push(id);
      setTimeout(() => res.writeHead(refuseFirst && first ? 500 : 200).end(), 200);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

async function sandboxWithOnePayment(webhook: string) {
  const dir = mkdtempSync(join(tmpdir(), 'payctl-drain-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'sandbox.db');
  const sb = await startSandbox({ db, webhook });
  const res = await fetch(`${sb.origin}/_sandbox/seed`, {
    method: 'POST',
    headers: {
      authorization: 'Basic ' + Buffer.from(`${sb.keyId}:${sb.keySecret}`).toString('base64'),
      'content-type': 'application/json',
    },
    body: JSON.stringify({ authorized: 1 }),
  });
  expect(res.status).toBe(200);
  return { sb, db };
}

function deliveries(db: string) {
  const store = new Store(db);
  try {
    return store.list('event', { count: 100, skip: 0 }).map((e) => e._delivery);
  } finally {
    store.close();
  }
}

/** A sandbox with one payment's delivery under way to a receiver (refusing the first delivery or not), closed: the delivery reached it once. */
async function closedWithOneDelivery(refuseFirst: boolean) {
  const hook = await receiver(refuseFirst);
  const { sb, db } = await sandboxWithOnePayment(hook.url);
  await sb.close();
  expect(hook.received).toHaveLength(1);
  return { hook, db };
}

describe('closing the sandbox', () => {
  it('waits for a webhook delivery under way and records its outcome', async () => {
    const { db } = await closedWithOneDelivery(false);
    expect(deliveries(db)).toEqual(['delivered']);
  });

  it('keeps a waiting retry queued in the database: the next sandbox on the file sends it', async () => {
    const { hook, db } = await closedWithOneDelivery(true);
    expect(deliveries(db)).toEqual(['retrying']);
    const again = await startSandbox({ db, webhook: hook.url });
    await expect.poll(() => hook.received.length, { timeout: 5_000 }).toBe(2);
    await again.close();
    expect(new Set(hook.received).size).toBe(1); // the same event id
    expect(deliveries(db)).toEqual(['delivered']);
  });
});
