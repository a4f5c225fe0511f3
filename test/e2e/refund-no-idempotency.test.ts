import { beforeAll, describe, expect, it } from 'vitest';
import { faultProxyForFile, holdFirstRefund, isRefundPost } from './fault-proxy';
import { run, sandboxForFile } from './harness';
import { call, capturedPayment, refundByToken, refunded, structured, textOf, withMcp } from './mcp-client';
import type { Rec } from './mcp-client';

/**
 * A service that ignores refund idempotency keys (sandbox start --no-idempotency), a refund whose
 * first request a proxy holds (answering 502 at once) and lets land only later: a rerun (CLI) or a
 * re-plan (MCP) while that request may still arrive finds no refund with the key, and must refuse
 * with the time to wait and the check, never send a second one. Each step waits on the proxy's
 * events, not on the clock: the held request stays held until the refusal has been seen.
 */
const sb = sandboxForFile(['--no-idempotency']);
const proxy = faultProxyForFile(sb, 'shop');
/** The environment of profile `shop`, stored in the sandbox's home and pointed through the proxy. */
const shop: Record<string, string> = {};
beforeAll(() => void (shop.PAYCTL_HOME = sb.home));

/** The refund requests payctl sent for one payment. */
const refundPosts = (id: string) => proxy.log.filter((r) => isRefundPost(r) && r.path.includes(id)).length;
// Each test refunds its own payment: the first POST to its refund path is the one held.
const holdFirst = () => holdFirstRefund(proxy);

describe('an unknown refund on a service without idempotency', () => {
  it('CLI: the rerun with its key refuses while the first request may still arrive; once it landed, the rerun finds it: one refund', async () => {
    const id = await capturedPayment(sb);
    const { release, landed } = holdFirst();
    const args = ['-p', 'shop', 'payments', 'refund', id, '--amount', '10000', '--yes', '--timeout', '2'];
    const lost = await run(args, { env: shop });
    expect(lost.code, lost.stderr).toBe(6);
    const key = /Its key: (pcs_[A-Za-z0-9_-]+)/.exec(lost.stderr)?.[1];
    expect(key, lost.stderr).toBeDefined();
    expect(lost.stderr).not.toMatch(/at most once/);

    const early = await run([...args, '--idempotency-key', key!], { env: shop });
    expect(early.code, early.stderr).toBe(6);
    expect(early.stderr).toMatch(
      /the earlier request may still arrive for \d+ s more: nothing is sent again before then/,
    );
    expect(early.stderr).toMatch(new RegExp(`check with \`payctl -p shop payments get ${id}\``));
    expect(early.stderr).toMatch(/run the same command again after \S+Z \(in \d+ s\)/);
    expect(refundPosts(id)).toBe(1);

    release();
    expect(await landed).toBe(200);
    const after = await run([...args, '--idempotency-key', key!], { env: shop });
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toMatch(/refunded already with key/);
    expect(refundPosts(id)).toBe(1);
    expect(await refunded(sb, id)).toBe(10000);
    expect((await sb.api<{ items: Rec[] }>('GET', `/payments/${id}/refunds`)).body.items).toHaveLength(1);
  });

  it('MCP: a re-plan refuses while the first request may still arrive; once it landed, the plan reuses its key and sends nothing', async () => {
    const id = await capturedPayment(sb);
    const { release, landed } = holdFirst();
    const mcp = ['-p', 'shop', '--allow-writes', '--timeout', '2'];
    let key = '';
    await withMcp(mcp, shop, async (client) => {
      const lost = await refundByToken(client, { payment_id: id, amount: 10000 });
      expect(structured(lost)).toMatchObject({ outcome: 'unknown' });
      key = String(structured<Rec>(lost).idempotency_key);
      const early = await call(client, 'payments_refund', { payment_id: id, amount: 10000 });
      expect(early.isError).toBe(true);
      expect(textOf(early)).toMatch(/may still arrive for \d+ s more/);
      expect(textOf(early)).toMatch(new RegExp(`payments_get \\{"payment_id": "${id}"\\}`));
      expect(textOf(early)).toMatch(/plan it again after \S+Z \(in \d+ s\)/);
      expect(refundPosts(id)).toBe(1);
    });
    release();
    expect(await landed).toBe(200);
    await withMcp(mcp, shop, async (client) => {
      const plan = await call(client, 'payments_refund', { payment_id: id, amount: 10000 });
      const planned = structured<{ plan: Rec; token: string }>(plan);
      expect(planned.plan.args).toMatchObject({ idempotency_key: key });
      expect(JSON.stringify(plan)).not.toMatch(/at most once/);
      const again = await call(client, 'confirm', { token: planned.token });
      expect(structured(again)).toMatchObject({ outcome: 'done', idempotency_key: key });
    });
    expect(refundPosts(id)).toBe(1);
    expect(await refunded(sb, id)).toBe(10000);
    expect((await sb.api<{ items: Rec[] }>('GET', `/payments/${id}/refunds`)).body.items).toHaveLength(1);
  });
});
