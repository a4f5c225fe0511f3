import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Razorpay from 'razorpay';
import { addProfile, run, sandboxForFile, scratchDir, startPayctl, startSandbox } from './harness';
import type { Started } from './harness';
import { recordingHandler } from './webhook-receiver';

// The webhook rules a user relies on, through the built bin: listeners on one URL keep their own
// filters, events made while a webhook is disabled wait for `enable`, `trigger --set` is checked whole
// before anything is made, a note key that is not a plain name is refused everywhere, and a trigger
// lists only the events it made when another sandbox process shares the database.

const sb = sandboxForFile();
let env: Record<string, string>;
const listeners: Started[] = [];
const payctl = (args: string[]) => run(['-p', 'dev', ...args], { env });
const waitFor = (what: () => boolean, timeout = 20_000) => expect.poll(what, { timeout, interval: 100 }).toBe(true);
const eventCount = async () => (await sb.admin<{ count: number }>('GET', '/events')).count;

async function listen(url: string, events?: string): Promise<Started> {
  const args = ['-p', 'dev', 'webhooks', 'listen', '--forward-to', url];
  const l = startPayctl(events ? [...args, '--events', events] : args, env);
  listeners.push(l);
  for (let i = 0; i < 100 && !l.err().includes('Ctrl-C stops'); i++) await sleep(100);
  expect(l.err()).toContain('Ctrl-C stops');
  return l;
}

async function stopAll() {
  for (const l of listeners.splice(0)) {
    if (l.running()) l.signal('SIGINT');
    await l.exit;
  }
}

beforeAll(async () => {
  env = await addProfile(sb, 'dev');
});
afterAll(stopAll);

describe('webhooks listen', () => {
  it('two listeners on one URL each keep their own --events filter', async () => {
    const handler = await recordingHandler();
    try {
      await listen(handler.url, 'payment.*');
      await listen(handler.url, 'refund.*');
      const hooks = await sb.admin<{ items: Array<{ url: string; live: boolean; events: string[] }> }>(
        'GET',
        '/webhooks',
      );
      const mine = hooks.items.filter((h) => h.url === handler.url && h.live).map((h) => h.events);
      expect(mine).toEqual([['payment.*'], ['refund.*']]);
      const t = await payctl(['webhooks', 'trigger', 'refund.processed']);
      expect(t.code, t.stderr).toBe(0);
      const want = ['payment.authorized', 'payment.captured', 'refund.created', 'refund.processed'];
      await waitFor(() => want.every((e) => handler.named(e).length === 1));
      expect(handler.named('order.paid')).toHaveLength(0);
    } finally {
      await stopAll();
      await handler.down();
    }
  });

  it('events made while the webhook is disabled wait, and are sent on enable', async () => {
    const handler = await recordingHandler();
    try {
      handler.failNext(1_000_000);
      const l = await listen(handler.url);
      await payctl(['webhooks', 'trigger', 'payment.authorized']);
      await waitFor(() => handler.received.length >= 1);
      // A day of failed deliveries on the sandbox clock: the next attempt gives up and disables it.
      await sb.admin('POST', '/clock/advance', { seconds: 25 * 3600 });
      await waitFor(() => /the sandbox disabled this webhook/.test(l.err()));
      const held = await payctl(['webhooks', 'trigger', 'payment.failed', '-o', 'json']);
      const failedId = JSON.parse(held.stdout).events.find((e: { event: string }) => e.event === 'payment.failed').id;
      const hooks = await sb.admin<{ items: Array<{ id: string; url: string; waiting: number; live: boolean }> }>(
        'GET',
        '/webhooks',
      );
      const hook = hooks.items.find((h) => h.url === handler.url && h.live)!;
      expect(hook.waiting).toBe(1);
      expect(handler.received.some((r) => r.eventId === failedId)).toBe(false);
      handler.failNext(0);
      const enabled = await payctl(['webhooks', 'enable', hook.id]);
      expect(enabled.code, enabled.stderr).toBe(0);
      await waitFor(() => handler.received.some((r) => r.eventId === failedId));
    } finally {
      await stopAll();
      await handler.down();
    }
  });
});

describe('a backlog', () => {
  it('made while the handler was down goes out when it is back: in order per record, signatures unchanged', async () => {
    const handler = await recordingHandler();
    try {
      const l = await listen(handler.url);
      await handler.down();
      const made: string[] = [];
      for (const event of ['refund.processed', 'payment.captured', 'subscription.charged']) {
        const t = await payctl(['webhooks', 'trigger', event, '-o', 'json']);
        expect(t.code, t.stderr).toBe(0);
        made.push(...(JSON.parse(t.stdout).events as Array<{ id: string }>).map((e) => e.id));
      }
      await waitFor(() => /is down/.test(l.err()));
      await handler.up();
      await waitFor(() => made.every((id) => handler.received.some((r) => r.eventId === id)));
      // Each record's events arrive in the order they were made.
      const subject = (raw: string) => {
        const body = JSON.parse(raw) as { contains: string[]; payload: Record<string, { entity: { id: string } }> };
        return body.payload[body.contains[0]!]!.entity.id;
      };
      const firsts = made.map((id) => handler.received.find((r) => r.eventId === id)!);
      const arrival = (id: string) => handler.received.findIndex((r) => r.eventId === id);
      for (let i = 0; i < firsts.length; i++)
        for (let j = i + 1; j < firsts.length; j++)
          if (subject(firsts[i]!.raw) === subject(firsts[j]!.raw))
            expect(arrival(made[i]!)).toBeLessThan(arrival(made[j]!));
      expect(firsts.every((r) => Razorpay.validateWebhookSignature(r.raw, r.signature, sb.webhookSecret))).toBe(true);
    } finally {
      await stopAll();
      await handler.down();
    }
  });
});

describe('webhooks trigger --set', () => {
  it.each([
    [['refund.processed', '--set', 'refund.amount=60000'], /refund\.amount=60000: more than the payment's 50000/],
    [['payment.captured', '--set', `order.receipt=${'r'.repeat(41)}`], /order\.receipt: may not be greater than 40/],
    [['subscription.charged', '--set', 'subscription.total_count=20000'], /subscription\.total_count/],
    [['payment.captured', '--set', 'order.notes.__proto__=x'], /"__proto__" is not a plain name/],
  ])('%j: exit 2, nothing made, nothing sent', async (args, why) => {
    const before = { events: await eventCount(), stats: await sb.stats() };
    const result = await payctl(['webhooks', 'trigger', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(why);
    expect(await eventCount()).toBe(before.events);
    expect((await sb.stats()).writes).toEqual(before.stats.writes);
  });
});

describe('a note key that is not a plain name', () => {
  it.each(['__proto__', 'constructor', ' ', 'k'.repeat(257)])('%j is exit 2, nothing sent', async (key) => {
    const before = await sb.stats();
    const created = await payctl(['orders', 'create', '--amount', '5000', '--currency', 'INR', '--note', `${key}=x`]);
    expect(created.code).toBe(2);
    expect(created.stderr).toMatch(/not a plain name|needs a key|longer than 256/);
    const csv = join(sb.home, 'refunds.csv');
    writeFileSync(csv, `payment_id,amount,note.${key}\npay_DBJOWzybf0sJbb,100,x\n`);
    const bulk = await payctl(['payments', 'refund', '--input', csv, '--yes', '-o', 'ndjson']);
    expect(bulk.code).toBe(2);
    expect(bulk.stdout + bulk.stderr).toMatch(/not a plain name|note.*key|longer than 256/);
    expect((await sb.stats()).requests).toBe(before.requests); // no request to the service
  });
});

describe('two sandbox processes on one database', () => {
  it("each trigger lists only the events it made, not the other process's", async () => {
    const db = join(scratchDir('payctl-two-'), 'shared.db');
    const [a, b] = [await startSandbox(['--db', db]), await startSandbox(['--db', db])];
    try {
      const fire = (s: typeof a) =>
        run(['webhooks', 'trigger', 'payment.captured', '-o', 'json'], { env: s.env }).then((r) => {
          expect(r.code, r.stderr).toBe(0);
          return JSON.parse(r.stdout) as { payment_id: string; events: Array<{ id: string }> };
        });
      const made = await Promise.all([a, b, a, b, a, b].map(fire));
      const all = await a.admin<{ items: Array<{ id: string; payload: { payment?: { entity: { id: string } } } }> }>(
        'GET',
        '/events',
      );
      const paymentOf = new Map(all.items.map((e) => [e.id, e.payload.payment?.entity.id]));
      for (const m of made) {
        expect(m.events).toHaveLength(3); // payment.authorized, payment.captured, order.paid
        for (const e of m.events) if (paymentOf.get(e.id)) expect(paymentOf.get(e.id)).toBe(m.payment_id);
      }
      expect(new Set(made.flatMap((m) => m.events.map((e) => e.id))).size).toBe(18);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
