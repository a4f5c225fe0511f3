import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import Razorpay from 'razorpay';
import { run, sandboxForFile } from './harness';
import { forwardingForFile } from './webhook-receiver';

// A sandbox refund that fails after it was made, seen as a user sees it: the signed events at their own
// handler (through `webhooks listen`, a stored non-default profile), the refund and the payment read
// back, and payctl's own refund with that refund's key.

const sb = sandboxForFile();
const w = forwardingForFile(sb, 'ops', (url) => [url, '--events', 'refund.*']);

const payctl = (args: string[]) => run(['-p', 'ops', ...args], { env: w.env });
const json = async (args: string[]) => {
  const r = await payctl([...args, '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
};
const waitFor = (what: () => boolean, timeout = 15_000) => expect.poll(what, { timeout, interval: 100 }).toBe(true);

describe('webhooks trigger refund.failed', () => {
  it('sends refund.created then refund.failed, signed; the refund reads failed and the payment has its money back', async () => {
    const t = await json([
      'webhooks',
      'trigger',
      'refund.failed',
      '--set',
      'order.amount=80000',
      '--set',
      'refund.amount=30000',
    ]);
    const refundId = String(t.refund_id);
    const paymentId = String(t.payment_id);
    const events = (t.events as Array<{ event: string }>).map((e) => e.event);
    expect(events.filter((e) => e.startsWith('refund.'))).toEqual(['refund.created', 'refund.failed']);

    const mine = () => w.handler.received.filter((r) => r.raw.includes(refundId));
    await waitFor(() => mine().length >= 2);
    await sleep(300);
    expect(mine().map((r) => r.event)).toEqual(['refund.created', 'refund.failed']);
    for (const r of mine()) expect(Razorpay.validateWebhookSignature(r.raw, r.signature, w.secret)).toBe(true);
    const failed = JSON.parse(mine()[1]!.raw) as {
      contains: string[];
      payload: { refund: { entity: Record<string, unknown> }; payment: { entity: Record<string, unknown> } };
    };
    expect(failed.contains).toEqual(['refund', 'payment']);
    expect(failed.payload.refund.entity).toMatchObject({ id: refundId, status: 'failed', amount: 30_000 });
    expect(failed.payload.payment.entity).toMatchObject({ id: paymentId, amount_refunded: 0, refund_status: null });

    expect(await json(['refunds', 'get', refundId])).toMatchObject({ id: refundId, status: 'failed', amount: 30_000 });
    expect(await json(['payments', 'get', paymentId])).toMatchObject({
      status: 'captured',
      amount_refunded: 0,
      refund_status: null,
    });
  });

  it('payments refund with the failed refund key is refused (exit 1, nothing sent); a new key refunds it all', async () => {
    const key = 'pcs_failedkey0001';
    const t = await json(['webhooks', 'trigger', 'refund.failed', '--set', `refund.notes.payctl_key=${key}`]);
    const paymentId = String(t.payment_id);
    const again = await payctl(['payments', 'refund', paymentId, '--idempotency-key', key, '--yes']);
    expect(again.code, again.stderr).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain(`${String(t.refund_id)} carrying our key failed at the service`);
    expect(again.stderr).toMatch(/without --idempotency-key/);
    expect((await json(['payments', 'get', paymentId])).amount_refunded).toBe(0);

    const fresh = await json(['payments', 'refund', paymentId, '--yes']);
    expect(fresh).toMatchObject({ payment_id: paymentId, amount: 50_000, status: 'processed' });
    expect(await json(['payments', 'get', paymentId])).toMatchObject({
      amount_refunded: 50_000,
      refund_status: 'full',
    });
  });

  it('a --set the refund does not take is refused before anything is made', async () => {
    const r = await payctl(['webhooks', 'trigger', 'refund.failed', '--set', 'plan.amount=100']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/does not apply to refund.failed/);
  });
});
