import { beforeAll, describe, expect, it } from 'vitest';
import { faultProxyForFile, holdFirstRefund, isRefundPost } from './fault-proxy';
import { run, sandboxForFile } from './harness';
import { call, capturedPayment, refundByToken, refunded, structured, textOf, withMcp } from './mcp-client';
import type { Rec } from './mcp-client';

describe.each([
  ['a service that honours the idempotency header', []],
  ['a service that ignores it (sandbox start --no-idempotency)', ['--no-idempotency']],
])('payctl mcp, an unknown outcome, on %s', (_name, sandboxArgs) => {
  const sb = sandboxForFile(sandboxArgs);
  const proxy = faultProxyForFile(sb, 'shop');
  /** The environment of profile `shop`, stored in the sandbox's home and pointed through the proxy. */
  const shop: Record<string, string> = {};
  beforeAll(() => void (shop.PAYCTL_HOME = sb.home));

  it('carries its key: the next plan for the payment reuses it, and the refund is made once', async () => {
    const id = await capturedPayment(sb);
    // The refund's answer is a 502 page, and the refund itself lands only after payctl gave its verdict.
    const { release, landed } = holdFirstRefund(proxy);
    let key = '';
    await withMcp(['-p', 'shop', '--allow-writes'], shop, async (client) => {
      const lost = await refundByToken(client, { payment_id: id, amount: 10000 });
      const answer = structured<Rec & { check_with: Rec[] }>(lost);
      expect(lost.isError).toBe(true);
      expect(answer).toMatchObject({ outcome: 'unknown', idempotency_key: expect.stringMatching(/^pcs_/) });
      key = String(answer.idempotency_key);
      expect(answer.check_with[0]).toEqual({
        tool: 'payments_refund',
        arguments: { payment_id: id, idempotency_key: key },
        why: expect.stringMatching(/looks for the refund carrying this key first/),
      });
      expect(String(answer.cli_check)).toMatch(new RegExp(`--idempotency-key ${key}`));
    });
    release();
    expect(await landed).toBe(200);
    expect(await refunded(sb, id)).toBe(10000);

    // A new session (the record is in the audit log): the plan names the unknown refund and reuses its key.
    await withMcp(['-p', 'shop', '--allow-writes'], shop, async (client) => {
      const plan = await call(client, 'payments_refund', { payment_id: id, amount: 10000 });
      const planned = structured<{ plan: Rec; token: string }>(plan);
      expect(planned.plan.args).toMatchObject({ idempotency_key: key });
      expect(String(planned.plan.note)).toMatch(/unknown outcome is on record.*reuses its key/);
      const again = await call(client, 'confirm', { token: planned.token });
      expect(structured(again)).toMatchObject({ outcome: 'done', idempotency_key: key });
      expect(structured<{ notices: string[] }>(again).notices.join(' ')).toMatch(/refunded already with key/);
    });
    expect(await refunded(sb, id)).toBe(10000);
    const refunds = await sb.api<{ items: Rec[] }>('GET', `/payments/${id}/refunds`);
    expect(refunds.body.items).toHaveLength(1);
  });

  it('a refund that never landed: another amount is refused until checked; retried with its key, it is made once', async () => {
    const id = await capturedPayment(sb);
    proxy.setRule((req) => (isRefundPost(req) && req.nth <= 2 ? { type: 'drop-before' } : { type: 'pass' }));
    // A 1 s deadline: the request may still arrive for twice that after it was sent, and no retry goes before.
    await withMcp(['-p', 'shop', '--allow-writes', '--timeout', '1'], shop, async (client) => {
      const lost = await refundByToken(client, { payment_id: id, amount: 10000 });
      const answer = structured<Rec & { check_with: { arguments: Rec }[] }>(lost);
      expect(answer.outcome).toBe('unknown');
      const key = String(answer.idempotency_key);

      const other = await call(client, 'payments_refund', { payment_id: id, amount: 5000 });
      expect(other.isError).toBe(true);
      expect(textOf(other)).toMatch(new RegExp(`no known outcome on record \\(key ${key}\\).*nothing was sent`));

      proxy.setRule(() => ({ type: 'pass' }));
      await new Promise((r) => setTimeout(r, 2_100)); // past the quiet period (a lower bound, not a race)
      const retried = await refundByToken(client, answer.check_with[0]!.arguments);
      expect(structured(retried)).toMatchObject({ outcome: 'done', idempotency_key: key, data: { amount: 10000 } });
    });
    expect(await refunded(sb, id)).toBe(10000);
    const log = await run(['mcp', 'log', '-o', 'json'], { env: shop });
    const events = (JSON.parse(log.stdout) as Rec[]).filter((r) => r.target === id).map((r) => r.event);
    expect(events).toEqual(['planned', 'sending', 'unknown', 'planned', 'sending', 'done']);
  });
});
