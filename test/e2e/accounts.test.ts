import Razorpay from 'razorpay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSecret, runJson, sandboxForFile } from './harness';
import { refusal, webhookReceiver } from './sdk';
import type { Json } from './sdk';

/**
 * Many merchant accounts on one sandbox, each driven by the official SDK with its own keys; snapshots
 * of an account's state, and accounts forked from them.
 */
const sb = sandboxForFile();

interface Account {
  id: string;
  key_id: string;
  key_secret: string;
  webhook_secret: string;
}

/** `payctl sandbox account create -o json`, with the default account's key. */
async function createAccount(...args: string[]): Promise<Account> {
  const res = await runJson<Account>(sb, ['sandbox', 'account', 'create', ...args]);
  expect(res.code, res.stderr).toBe(0);
  registerSecret(res.data!.key_secret, res.data!.key_id);
  return res.data!;
}

function sdk(a: Account): Json {
  const rzp = new Razorpay({ key_id: a.key_id, key_secret: a.key_secret });
  (rzp.api as unknown as { rq: { defaults: { baseURL: string } } }).rq.defaults.baseURL = sb.origin;
  return rzp;
}

/** The raw bytes of a GET with the account's key: the service's own answer, compared byte for byte. */
async function raw(a: Account, path: string): Promise<string> {
  const auth = `Basic ${Buffer.from(`${a.key_id}:${a.key_secret}`).toString('base64')}`;
  const res = await fetch(`${sb.origin}${path}`, { headers: { authorization: auth, connection: 'close' } });
  expect(res.status, path).toBe(200);
  return res.text();
}

async function admin<T = Json>(a: Account, path: string, body?: unknown): Promise<T> {
  const auth = `Basic ${Buffer.from(`${a.key_id}:${a.key_secret}`).toString('base64')}`;
  const res = await fetch(`${sb.origin}/_sandbox${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: auth, 'content-type': 'application/json', connection: 'close' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as T;
}

const env = (a: Account) => ({ ...sb.env, PAYCTL_KEY_ID: a.key_id, PAYCTL_KEY_SECRET: a.key_secret });

/** Every list an account answers, as the service sends it. */
const LISTS = [
  '/v1/orders?count=100',
  '/v1/payments?count=100',
  '/v1/refunds?count=100',
  '/v1/settlements?count=100',
  '/v1/customers?count=100',
  '/v1/plans?count=100',
  '/v1/subscriptions?count=100',
  '/_sandbox/events',
];
const reads = async (a: Account) => Promise.all(LISTS.map((path) => raw(a, path)));

describe('accounts on one sandbox', () => {
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
  let b: Account;
  let c: Account;
  beforeAll(async () => {
    let secret = '';
    receiver = await webhookReceiver(() => secret);
    b = await createAccount('--name', 'suite-b', '--webhook', receiver.url);
    secret = b.webhook_secret;
    c = await createAccount('--name', 'suite-c');
  });
  afterAll(() => receiver.close());

  it('each prints its own keys and webhook secret; each SDK sees its own records, ids, events and clock alone', async () => {
    expect(new Set([b.key_id, c.key_id, sb.keyId]).size).toBe(3);
    expect(b.webhook_secret).not.toBe(c.webhook_secret);
    const [rb, rc] = [sdk(b), sdk(c)];
    const ob = await rb.orders.create({ amount: 50000, currency: 'INR', receipt: 'b-1', payment_capture: true });
    const oc = await rc.orders.create({ amount: 70000, currency: 'INR', receipt: 'c-1', payment_capture: true });
    const pb = await admin(b, '/checkout', { order_id: ob.id });
    await admin(c, '/checkout', { order_id: oc.id });
    const refund = await rb.payments.refund(pb.id, { amount: 10000 });

    expect((await rb.orders.all()).items.map((o: Json) => o.id)).toEqual([ob.id]);
    expect((await rc.orders.all()).items.map((o: Json) => o.id)).toEqual([oc.id]);
    expect((await rc.payments.all()).items.map((p: Json) => p.order_id)).toEqual([oc.id]);
    expect((await rc.refunds.all()).items).toEqual([]);
    expect((await sb.api<Json>('GET', '/orders')).body.items.map((o: Json) => o.id)).not.toContain(ob.id);

    // Another account's id is answered as an id that does not exist.
    for (const call of [rc.orders.fetch(ob.id), rc.payments.fetch(pb.id), rc.refunds.fetch(refund.id)]) {
      const { statusCode, error } = await refusal(call);
      expect(statusCode).toBe(400);
      expect(error.description).toBe('The id provided does not exist');
    }
    expect((await refusal(rc.payments.refund(pb.id, { amount: 100 }))).statusCode).toBe(400);

    // Clocks: advancing one moves no other; settlements fall due on the advanced one alone.
    const before = await admin<{ now: number }>(c, '/clock');
    const moved = await admin<{ offset: number }>(b, '/clock/advance', { seconds: 3 * 86_400 });
    expect(moved.offset).toBe(3 * 86_400);
    const after = await admin<{ now: number; offset: number }>(c, '/clock');
    expect(after.offset).toBe(0);
    expect(after.now - before.now).toBeLessThan(60);
    expect((await rb.settlements.all()).items.length).toBeGreaterThan(0);
    expect((await rc.settlements.all()).items).toEqual([]);

    const eventsOf = async (a: Account) =>
      (await admin<{ items: Json[] }>(a, '/events')).items.map((e) => e.payload.payment?.entity.id ?? '');
    expect(await eventsOf(c)).not.toContain(pb.id);
    expect((await admin<{ items: Json[] }>(b, '/events')).items.every((e) => e.account_id === b.id)).toBe(true);

    // B's webhook gets B's events, signed with B's webhook secret, and nothing of C's.
    await expect.poll(() => receiver.events('refund.processed').length, { timeout: 15_000 }).toBe(1);
    expect(receiver.deliveries.every((d) => d.verified)).toBe(true);
    expect(receiver.deliveries.every((d) => d.body.account_id === b.id)).toBe(true);
    expect(receiver.deliveries.some((d) => JSON.stringify(d.body).includes(oc.id))).toBe(false);
  });

  it('a wrong secret for a real key id is refused 401, with no account named', async () => {
    const wrong = { ...b, key_secret: `${b.key_secret}x` };
    const { statusCode } = await refusal(sdk(wrong).orders.all());
    expect(statusCode).toBe(401);
  });
});

describe('snapshots', () => {
  it('a snapshot taken mid-story and loaded later replays every read byte for byte; a fork diverges alone', async () => {
    const a = await createAccount('--name', 'story');
    const rzp = sdk(a);
    const seeded = await admin<{ order_ids: string[] }>(a, '/seed', { orders: 12 });
    expect(seeded.order_ids).toHaveLength(12);
    const captured = (await rzp.payments.all({ count: 100 })).items.find(
      (p: Json) => p.status === 'captured' && p.amount_refunded === 0 && p.amount >= 20000,
    );
    await rzp.payments.refund(captured.id, { amount: 5000 });
    await admin(a, '/clock/advance', { seconds: 3 * 86_400 });
    // Read before the save: the clock the snapshot keeps is this one or a second or so later, never earlier.
    const clockAtSave = (await admin<{ now: number }>(a, '/clock')).now;
    const saved = await runJson<{ name: string; records: number }>(sb, ['sandbox', 'snapshot', 'save', 'mid'], {
      env: env(a),
    });
    expect(saved.code, saved.stderr).toBe(0);
    const mid = await reads(a);
    expect(JSON.parse(mid[3]!).count, 'settlements made before the snapshot').toBeGreaterThan(0);

    // The story goes on: more orders and refunds, time moves.
    await rzp.orders.create({ amount: 12345, currency: 'INR' });
    await rzp.payments.refund(captured.id, { amount: 1000 });
    await admin(a, '/clock/advance', { seconds: 5 * 86_400 });
    expect(await reads(a)).not.toEqual(mid);

    const loaded = await runJson(sb, ['sandbox', 'snapshot', 'load', 'mid'], { env: env(a) });
    expect(loaded.code, loaded.stderr).toBe(0);
    const clock = (await admin<{ now: number }>(a, '/clock')).now;
    expect(clock - clockAtSave).toBeGreaterThanOrEqual(0);
    expect(clock - clockAtSave).toBeLessThan(60);
    const replayed = await reads(a);
    for (const [i, path] of LISTS.entries()) expect(replayed[i], path).toBe(mid[i]);

    const listed = await runJson<Array<{ name: string }>>(sb, ['sandbox', 'snapshot', 'list'], { env: env(a) });
    expect(listed.data!.map((s) => s.name)).toEqual(['mid']);
    // Snapshots are the account's own: another account has none, and cannot load or fork from this one.
    expect((await admin<{ items: unknown[] }>(await createAccount(), '/snapshots')).items).toEqual([]);
    const elsewhere = await runJson(sb, ['sandbox', 'account', 'create', '--from', 'mid']);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain('No snapshot named mid');

    const fork = await createAccountAs(a, 'mid');
    expect(fork.id).not.toBe(a.id);
    expect(await reads(fork)).toEqual(mid);
    const forkOrder = await sdk(fork).orders.create({ amount: 999, currency: 'INR' });
    await admin(fork, '/clock/advance', { seconds: 86_400 });
    expect(JSON.parse(await raw(fork, '/v1/orders?count=100')).items[0].id).toBe(forkOrder.id);
    expect(await reads(a)).toEqual(mid);
    expect((await refusal(rzp.orders.fetch(forkOrder.id))).error.description).toBe('The id provided does not exist');

    const deleted = await runJson(sb, ['sandbox', 'snapshot', 'delete', 'mid'], { env: env(a) });
    expect(deleted.code, deleted.stderr).toBe(0);
    expect((await admin<{ items: unknown[] }>(a, '/snapshots')).items).toEqual([]);
  });
});

/** `sandbox account create --from NAME` with account `a`'s key: a fork of a's snapshot. */
async function createAccountAs(a: Account, from: string): Promise<Account> {
  const res = await runJson<Account>(sb, ['sandbox', 'account', 'create', '--from', from], { env: env(a) });
  expect(res.code, res.stderr).toBe(0);
  registerSecret(res.data!.key_secret, res.data!.key_id);
  return res.data!;
}
