import { beforeAll, describe, expect, it } from 'vitest';
import { addProfile, run, sandboxForFile } from './harness';
import { call, capturedPayment, refunded, structured, withMcp } from './mcp-client';
import type { Rec } from './mcp-client';

/**
 * The plan an assistant is shown for a refund or a capture is the one the person's own `--dry-run
 * --read` shows for the same command: the same requests (path, amount, key), and the confirmed plan
 * sends exactly them.
 */
const sb = sandboxForFile();
let books: Record<string, string>;
beforeAll(async () => {
  books = await addProfile(sb, 'books');
});

type Request = { method: string; path: string; body: Rec };

/** `payctl payments …ARGS --dry-run --read -o json`: the requests it shows, by path. */
async function cliPlan(args: string[]): Promise<Request[]> {
  const res = await run(['-p', 'books', 'payments', ...args, '--dry-run', '--read', '-o', 'json'], { env: books });
  expect(res.code, res.stderr).toBe(0);
  expect(res.stderr).toMatch(/dry run: 1 request shown, nothing sent/);
  return (JSON.parse(res.stdout) as (Request & { url: string })[]).map(({ method, url, body }) => {
    expect(url.startsWith(sb.baseUrl)).toBe(true);
    return { method, path: url.slice(sb.baseUrl.length), body };
  });
}

describe('an MCP plan is the CLI dry run of the same command', () => {
  it('a refund: the same requests (what remains, its key, its path), and the confirmed plan sends them', async () => {
    const id = await capturedPayment(sb);
    expect((await sb.api('POST', `/payments/${id}/refund`, { amount: 15000 })).status).toBe(200);
    const key = 'pcs_same_plan_key_01';
    const cli = await cliPlan(['refund', id, '--idempotency-key', key, '--note', 'reason=late']);
    expect(cli).toEqual([
      {
        method: 'POST',
        path: `/payments/${id}/refund`,
        body: { amount: 35000, notes: { reason: 'late', payctl_key: key } },
      },
    ]);
    await withMcp(['-p', 'books', '--allow-writes'], books, async (client) => {
      const args = { payment_id: id, idempotency_key: key, note: { reason: 'late' } };
      const planned = structured<{ plan: Rec & { requests: Request[] }; token: string }>(
        await call(client, 'payments_refund', args),
      );
      expect(planned.plan.requests).toEqual(cli);
      expect(planned.plan).toMatchObject({ amount: 35000, args: { amount: '35000', idempotency_key: key } });
      expect(await refunded(sb, id)).toBe(15000); // neither plan moved money

      // Without a key or an amount given, each fixes all that remains and a key of its own.
      const own = await cliPlan(['refund', id]);
      const fresh = structured<{ plan: { requests: Request[] } }>(
        await call(client, 'payments_refund', { payment_id: id }),
      );
      for (const plan of [own, fresh.plan.requests])
        expect(plan).toEqual([
          {
            method: 'POST',
            path: `/payments/${id}/refund`,
            body: { amount: 35000, notes: { payctl_key: expect.stringMatching(/^pcs_[A-Za-z0-9_-]{20}$/) } },
          },
        ]);

      const done = structured<{ data: Rec }>(await call(client, 'confirm', { token: planned.token }));
      expect(done).toMatchObject({
        outcome: 'done',
        data: { amount: 35000, notes: { reason: 'late', payctl_key: key } },
      });
    });
    expect(await refunded(sb, id)).toBe(50000);
  });

  it("a capture: the payment's full amount and currency, read now, in the same request", async () => {
    const [id] = (await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 1 })).payment_ids;
    const cli = await cliPlan(['capture', id!]);
    expect(cli).toEqual([
      { method: 'POST', path: `/payments/${id}/capture`, body: { amount: 50000, currency: 'INR' } },
    ]);
    await withMcp(['-p', 'books', '--allow-writes'], books, async (client) => {
      const planned = structured<{ plan: { requests: Request[] } }>(
        await call(client, 'payments_capture', { payment_id: id }),
      );
      expect(planned.plan.requests).toEqual(cli);
    });
    const payment = await sb.api<Rec>('GET', `/payments/${id}`);
    expect(payment.body.status).toBe('authorized');
  });
});
