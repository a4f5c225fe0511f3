import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from './harness';
import type { SandboxProcess } from './harness';

// X-Refund-Idempotency over HTTP, against `payctl sandbox start` as a script or payctl meets it.

type Json = Record<string, unknown> & { error?: Record<string, unknown> };

const started: SandboxProcess[] = [];
afterEach(async () => {
  for (const sb of started.splice(0)) await sb.stop();
});

async function sandbox(args: string[] = []) {
  const sb = await startSandbox(args);
  started.push(sb);
  const auth = 'Basic ' + Buffer.from(`${sb.keyId}:${sb.keySecret}`).toString('base64');
  const requests = async () => (await sb.admin<{ requests: number }>('GET', '/stats')).requests;
  return {
    sb,
    requests,
    async refund(payment: string, body: object, key?: string) {
      const res = await fetch(`${sb.baseUrl}/payments/${payment}/refund`, {
        method: 'POST',
        headers: {
          authorization: auth,
          'content-type': 'application/json',
          connection: 'close',
          ...(key === undefined ? {} : { 'x-refund-idempotency': key }),
        },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Json };
    },
    async captured(): Promise<string> {
      const id = (await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 1 })).payment_ids[0]!;
      expect((await sb.api('POST', `/payments/${id}/capture`, { amount: 50000, currency: 'INR' })).status).toBe(200);
      return id;
    },
    async state(payment: string) {
      const p = await sb.api<Json>('GET', `/payments/${payment}`);
      const list = await sb.api<{ items: Json[] }>('GET', `/payments/${payment}/refunds`);
      return { refunded: p.body.amount_refunded, ids: list.body.items.map((r) => r.id) };
    },
    /** Until the sandbox has received `n` service requests (it counts one as it arrives). */
    async received(n: number) {
      while ((await requests()) < n);
    },
  };
}

const KEY = 'payctl-run-4f9c2e-row-0001';

describe('X-Refund-Idempotency (sandbox start)', () => {
  it('a replay returns the same refund id, and amount_refunded moves once', async () => {
    const s = await sandbox();
    const pay = await s.captured();
    const body = { amount: 2000, notes: { payctl_key: KEY } };
    const first = await s.refund(pay, body, KEY);
    const again = await s.refund(pay, body, KEY);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body.id).toBe(first.body.id);
    expect(await s.state(pay)).toEqual({ refunded: 2000, ids: [first.body.id] });
  });

  it('the key with a different body is refused with the error object (400); nothing moves', async () => {
    const s = await sandbox();
    const pay = await s.captured();
    const first = await s.refund(pay, { amount: 2000 }, KEY);
    const other = await s.refund(pay, { amount: 2500 }, KEY);
    expect(other.status).toBe(400);
    expect(other.body.error).toMatchObject({
      code: 'BAD_REQUEST_ERROR',
      description: 'Different request with the same idempotency key has already been processed.',
    });
    expect(await s.state(pay)).toEqual({ refunded: 2000, ids: [first.body.id] });
  });

  it('a key under 10 characters is refused with the error object (400); nothing is refunded', async () => {
    const s = await sandbox();
    const pay = await s.captured();
    const res = await s.refund(pay, { amount: 2000 }, 'too-short');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'BAD_REQUEST_ERROR',
      description: expect.stringContaining('at least 10 characters'),
    });
    expect(await s.state(pay)).toEqual({ refunded: 0, ids: [] });
  });

  it('409 with the error object while the first request is held by --latency; then the first refund', async () => {
    const s = await sandbox(['--latency', '600']);
    const pay = await s.captured();
    const before = await s.requests();
    const first = s.refund(pay, { amount: 2000 }, KEY);
    await s.received(before + 1);
    const during = await s.refund(pay, { amount: 2000 }, KEY);
    expect(during.status).toBe(409);
    expect(during.body.error).toMatchObject({ code: 'BAD_REQUEST_ERROR' });
    expect(String(during.body.error!.description)).toMatch(/still being processed/);
    const done = await first;
    expect(done.status).toBe(200);
    const retry = await s.refund(pay, { amount: 2000 }, KEY);
    expect([retry.status, retry.body.id]).toEqual([200, done.body.id]);
    expect(await s.state(pay)).toEqual({ refunded: 2000, ids: [done.body.id] });
  });

  it('with --no-idempotency the header is ignored: two requests make two refunds', async () => {
    const s = await sandbox(['--no-idempotency']);
    const pay = await s.captured();
    const one = await s.refund(pay, { amount: 2000 }, KEY);
    const two = await s.refund(pay, { amount: 2000 }, KEY);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(two.body.id).not.toBe(one.body.id);
    expect((await s.state(pay)).refunded).toBe(4000);
  });
});
