import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy } from './fault-proxy';
import type { FaultProxy } from './fault-proxy';
import { sandboxForFile } from './harness';

/** The proxy the money-safety tests rely on does what it claims: forwards, or not, as its rule says. */
const sb = sandboxForFile();
let proxy: FaultProxy;
let payments: string[];

beforeAll(async () => {
  payments = (await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 3 })).payment_ids;
  proxy = await startFaultProxy(sb.baseUrl);
});
afterAll(async () => {
  await proxy?.close();
});

const auth = () => ({
  authorization: 'Basic ' + Buffer.from(`${sb.keyId}:${sb.keySecret}`).toString('base64'),
  'content-type': 'application/json',
});
const captures = async () =>
  (await sb.admin<{ applied: { captures: Record<string, number> } }>('GET', '/stats')).applied.captures;

describe('fault proxy', () => {
  it('passes requests through unchanged', async () => {
    proxy.setRule(() => ({ type: 'pass' }));
    const res = await fetch(`${proxy.baseUrl}/payments/${payments[0]}`, { headers: auth() });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: string }).id).toBe(payments[0]);
  });

  it('an HTML 408 after forwarding: the write was applied', async () => {
    proxy.setRule(() => ({ type: 'html-after', status: 408 }));
    const res = await fetch(`${proxy.baseUrl}/payments/${payments[1]}/capture`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ amount: 50000, currency: 'INR' }),
    });
    expect(res.status).toBe(408);
    expect(await res.text()).toContain('<html>');
    expect((await captures())[payments[1]!]).toBe(1);
  });

  it('a drop before forwarding: nothing applied', async () => {
    proxy.setRule(() => ({ type: 'drop-before' }));
    await expect(
      fetch(`${proxy.baseUrl}/payments/${payments[2]}/capture`, {
        method: 'POST',
        headers: auth(),
        body: JSON.stringify({ amount: 50000, currency: 'INR' }),
      }),
    ).rejects.toThrow();
    expect((await captures())[payments[2]!]).toBeUndefined();
    expect(proxy.log.at(-1)).toMatchObject({ method: 'POST', fault: 'drop-before' });
  });
});
