import { get } from 'node:http';
import { describe, expect, it } from 'vitest';
import { sandboxForFile } from './harness';
import { checkout, sdkFor } from './sdk';
import type { Json } from './sdk';

// The official SDK with its default HTTP agent (Node's global agent: keep-alive, idle sockets closed
// after 5 s) against `payctl sandbox start`, with the pauses an integrator's app makes between calls.
// A server that also closed idle connections after 5 s raced the client: the first call after a pause
// of about 5 s was written into a closing socket and died with ECONNRESET.

const sb = sandboxForFile();
const pause = (seconds: number) => new Promise((r) => setTimeout(r, seconds * 1000));

describe('the sandbox on the wire, as the real front end', () => {
  it('keeps an idle keep-alive connection for about a minute, and says so', async () => {
    const headers = await new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
      const auth = Buffer.from(`${sb.keyId}:${sb.keySecret}`).toString('base64');
      get(`${sb.baseUrl}/orders?count=1`, { headers: { authorization: `Basic ${auth}` } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers));
      }).on('error', reject);
    });
    expect(headers.connection).toBe('keep-alive');
    expect(headers['keep-alive']).toBe('timeout=65');
  });

  it(
    'the SDK survives pauses of 7 s and 65 s between calls, and each write is applied once',
    { timeout: 180_000 },
    async () => {
      const rzp: Json = sdkFor(sb);
      const order = await rzp.orders.create({ amount: 50000, currency: 'INR', receipt: 'keep-alive' });
      const paid = await checkout(sb, order.id);
      const payment = paid.id as string;
      await pause(7);
      expect((await rzp.payments.capture(payment, 50000, 'INR')).status).toBe('captured');
      await pause(65);
      const refund = await rzp.payments.refund(payment, { amount: 20000 });
      expect(refund.payment_id).toBe(payment);
      await pause(7);
      expect((await rzp.payments.fetch(payment)).amount_refunded).toBe(20000);

      const stats = await sb.stats();
      expect(stats.applied.captures[payment]).toBe(1);
      expect(stats.applied.refunds[payment]).toEqual({ count: 1, amount: 20000 });
    },
  );
});
