import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import Razorpay from 'razorpay';
import { ndjson, run, sandboxForFile, scratchDir, startPayctl } from './harness';
import { forwardingForFile, recordingHandler } from './webhook-receiver';

// `payctl webhooks listen` forwarding a sandbox's events to a handler on loopback, with a stored
// non-default profile: every delivery verifies with the official SDK, byte for byte.

const sb = sandboxForFile();
const w = forwardingForFile(sb, 'dev', (url) => [`${url}?src=payctl&x=1`, '-o', 'ndjson']);

const payctl = (args: string[]) => run(['-p', 'dev', ...args], { env: w.env });
const waitFor = (what: () => boolean, timeout = 15_000) => expect.poll(what, { timeout, interval: 100 }).toBe(true);

const verified = (raw: string, signature: string) => Razorpay.validateWebhookSignature(raw, signature, w.secret);

describe('webhooks listen --forward-to', () => {
  it("keeps no secret of its own: none in the home, the sandbox's printed again", async () => {
    expect(existsSync(join(w.env.PAYCTL_HOME!, 'webhook-secret'))).toBe(false);
    const again = await run(['-p', 'dev', 'webhooks', 'listen', '--print-secret'], { env: w.env });
    expect(again.stdout.trim()).toBe(`PAYCTL_WEBHOOK_SECRET=${w.secret}`);
  });

  it('trigger payment.captured, refund.processed, subscription.charged: each delivery verifies with the SDK', async () => {
    for (const args of [
      ['payment.captured'],
      ['refund.processed', '--set', 'refund.notes.note=returned 1/2 of the order: ₹200 café'],
      ['subscription.charged', '--set', 'plan.period=weekly'],
    ]) {
      const t = await payctl(['webhooks', 'trigger', ...args, '-o', 'json']);
      expect(t.code, t.stderr).toBe(0);
      expect(JSON.parse(t.stdout).events.map((e: { event: string }) => e.event)).toContain(args[0]);
    }
    const names = ['payment.captured', 'order.paid', 'refund.created', 'refund.processed', 'subscription.charged'];
    await waitFor(() => names.every((n) => w.handler.named(n).length > 0));
    await waitFor(
      () => w.handler.named('subscription.charged').length > 0 && w.handler.named('payment.captured').length >= 3,
    );

    for (const r of w.handler.received) {
      expect(verified(r.raw, r.signature), `${r.event} ${r.eventId}`).toBe(true);
      expect(r.url).toBe('/webhooks?src=payctl&x=1');
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.eventId).toMatch(/^evt_[A-Za-z0-9]{14}$/);
      expect(JSON.parse(r.raw)).toMatchObject({ entity: 'event', account_id: expect.any(String), event: r.event });
    }
    // The service's bytes: `/` and non-ASCII escaped, so JSON.stringify of the parsed body differs.
    const refund = w.handler.named('refund.processed')[0]!;
    expect(refund.raw).toContain('returned 1\\/2 of the order: \\u20b9200 caf\\u00e9');
    expect(JSON.stringify(JSON.parse(refund.raw))).not.toBe(refund.raw);
    expect(JSON.parse(refund.raw).payload.refund.entity.notes.note).toBe('returned 1/2 of the order: ₹200 café');
    const charged = JSON.parse(w.handler.named('subscription.charged')[0]!.raw);
    expect(charged.contains).toEqual(['subscription', 'payment']);
    expect(charged.payload.payment.entity.status).toBe('captured');

    // -o ndjson: one object per delivery on stdout, nothing else there.
    await waitFor(() => ndjson(w.listener.out()).length >= w.handler.received.length);
    const lines = ndjson<{ event_id: string; status: number; attempt: number; latency_ms: number }>(w.listener.out());
    expect(lines.every((l) => l.status === 200 && l.attempt === 1 && l.latency_ms >= 0)).toBe(true);
    expect(new Set(lines.map((l) => l.event_id))).toEqual(new Set(w.handler.received.map((r) => r.eventId)));
  });

  it('an override that does not apply is refused before anything runs', async () => {
    const before = w.handler.received.length;
    const events = async () => (await sb.admin<{ count: number }>('GET', '/events')).count;
    const count = await events();
    const refused = await payctl(['webhooks', 'trigger', 'payment.captured', '--set', 'refund.amount=100']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/refund\.amount does not apply to payment\.captured/);
    expect(await events()).toBe(count);
    expect(w.handler.received.length).toBe(before);
  });

  it('replay sends the same bytes: under the same event id, then under a new one', async () => {
    const original = w.handler.named('payment.captured')[0]!;
    const same = await payctl(['webhooks', 'replay', original.eventId, '-o', 'json']);
    expect(same.code, same.stderr).toBe(0);
    expect(JSON.parse(same.stdout)).toEqual([expect.objectContaining({ event_id: original.eventId, status: 200 })]);
    const renewed = await payctl(['webhooks', 'replay', original.eventId, '--new-id', '-o', 'json']);
    expect(renewed.code, renewed.stderr).toBe(0);
    const [fresh] = JSON.parse(renewed.stdout);
    expect(fresh.event_id).not.toBe(original.eventId);
    const copies = w.handler.received.filter((r) => r.raw === original.raw);
    expect(copies.map((r) => r.eventId)).toEqual([original.eventId, original.eventId, fresh.event_id]);
    expect(copies.every((r) => verified(r.raw, r.signature))).toBe(true);

    const listed = await payctl(['webhooks', 'deliveries', '--event', original.eventId, '-o', 'json']);
    const attempts = JSON.parse(listed.stdout);
    expect(attempts.length).toBe(3);
    expect(attempts[0]).toMatchObject({ status: 200, state: 'delivered', response: '{"received":true}' });
  });

  it('a handler that is down: said at once, the backlog delivered when it is back', async () => {
    await w.handler.down();
    const t = await payctl(['webhooks', 'trigger', 'payment.failed', '-o', 'json']);
    expect(t.code, t.stderr).toBe(0);
    const failedId = JSON.parse(t.stdout).events.find((e: { event: string }) => e.event === 'payment.failed').id;
    await waitFor(() => /is down \(connection failed \(ECONNREFUSED\)\)/.test(w.listener.err()), 5_000);
    expect(w.handler.named('payment.failed')).toHaveLength(0);
    await w.handler.up();
    await waitFor(() => w.handler.named('payment.failed').some((r) => r.eventId === failedId), 10_000);
    await waitFor(() => /answers again/.test(w.listener.err()), 5_000);
    await waitFor(() =>
      ndjson<{ event_id: string; status: number }>(w.listener.out()).some(
        (l) => l.event_id === failedId && l.status === 200,
      ),
    );
    const attempts = ndjson<{ event_id: string; status: number | null }>(w.listener.out()).filter(
      (l) => l.event_id === failedId,
    );
    expect(attempts.at(0)?.status).toBeNull();
    expect(attempts.at(-1)?.status).toBe(200);
  });

  it('rotate-secret: new events signed with the new secret, a retry with the signature it was first sent with', async () => {
    w.handler.failNext(1);
    const t = await payctl(['webhooks', 'trigger', 'payment.authorized', '-o', 'json']);
    const id = JSON.parse(t.stdout).events[0].id;
    await waitFor(() => w.handler.received.some((r) => r.eventId === id));
    const rotation = await payctl(['webhooks', 'rotate-secret']);
    expect(rotation.code, rotation.stderr).toBe(0);
    const rotated = rotation.stdout.trim().replace(/^PAYCTL_WEBHOOK_SECRET=/, '');
    expect(rotated).toMatch(/^whsec_[A-Za-z0-9]{24}$/);
    expect(rotated).not.toBe(w.secret);
    expect((await payctl(['webhooks', 'listen', '--print-secret'])).stdout.trim()).toBe(rotation.stdout.trim());
    await waitFor(() => w.handler.received.filter((r) => r.eventId === id).length === 2, 10_000);
    const [first, retry] = w.handler.received.filter((r) => r.eventId === id);
    expect(retry!.signature).toBe(first!.signature);
    expect(verified(retry!.raw, retry!.signature)).toBe(true);
    await payctl(['webhooks', 'trigger', 'payment.authorized']);
    await waitFor(() =>
      Razorpay.validateWebhookSignature(w.handler.received.at(-1)!.raw, w.handler.received.at(-1)!.signature, rotated),
    );
  });

  it('Ctrl-C stops listening cleanly', async () => {
    w.listener.signal('SIGINT');
    expect(await w.listener.exit).toBe(130);
    expect(w.listener.err()).not.toMatch(/Error|at .*\.js/);
    const hooks = await sb.admin<{ items: Array<{ kind: string; live: boolean }> }>('GET', '/webhooks');
    expect(hooks.items.filter((h) => h.kind === 'listen').every((h) => !h.live)).toBe(true);
  });
});

describe('webhooks listen --sandbox (the embedded sandbox, no profile)', () => {
  it('a trigger in another process on the same home reaches the listener, filtered by --events', async () => {
    const home = scratchDir('payctl-hooks-');
    const own = await recordingHandler();
    const env = { PAYCTL_HOME: home };
    const key = (await run(['--sandbox', 'webhooks', 'listen', '--print-secret'], { env })).stdout
      .trim()
      .split('=')[1]!;
    const l = startPayctl(['--sandbox', 'webhooks', 'listen', '--forward-to', own.url, '--events', 'refund.*'], env);
    try {
      await waitFor(() => l.err().includes('Ctrl-C stops'));
      const t = await run(['--sandbox', 'webhooks', 'trigger', 'refund.processed'], { env });
      expect(t.code, t.stderr).toBe(0);
      await waitFor(() => own.named('refund.processed').length === 1);
      expect(own.received.map((r) => r.event).sort()).toEqual(['refund.created', 'refund.processed']);
      expect(own.received.every((r) => Razorpay.validateWebhookSignature(r.raw, r.signature, key))).toBe(true);
      await waitFor(() => /refund\.processed +attempt 1 {2}200/.test(l.err()));
    } finally {
      l.signal('SIGINT');
      await l.exit;
      await own.down();
    }
  });
});
