import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createOrder, runJson, sandboxForFile } from './harness';

type Rec = Record<string, unknown>;

const sb = sandboxForFile();

async function newAuthorizedPayment(amount = 50000, receipt?: string) {
  const order = await createOrder(sb, amount, ['--manual-capture', ...(receipt ? ['--receipt', receipt] : [])]);
  const pay = await runJson(sb, ['sandbox', 'pay', order.id]);
  expect(pay.code, pay.stderr).toBe(0);
  return { order, payment: pay.data! };
}

/** `orders create` for 100 paise in INR: the command the input checks below add to. */
const ORDER_100 = ['orders', 'create', '--amount', '100', '--currency', 'INR'];

async function orderByReceipt(receipt: string) {
  const list = await runJson<Rec[]>(sb, ['orders', 'list', '--receipt', receipt]);
  expect(list.code, list.stderr).toBe(0);
  return list.data![0]!;
}

describe('order -> payment -> capture -> refund', () => {
  it('walks the whole story with every changing field', async () => {
    const created = await createOrder(sb, 50000, [
      '--manual-capture',
      '--receipt',
      'story-1',
      '--note',
      'customer=acme',
    ]);
    expect(created).toMatchObject({
      entity: 'order',
      amount: 50000,
      amount_paid: 0,
      amount_due: 50000,
      currency: 'INR',
      receipt: 'story-1',
      status: 'created',
      attempts: 0,
      notes: { customer: 'acme' },
    });
    expect(String(created.id)).toMatch(/^order_[A-Za-z0-9]{14}$/);

    const paid = await runJson(sb, ['sandbox', 'pay', String(created.id)]);
    expect(paid.code, paid.stderr).toBe(0);
    expect(paid.data).toMatchObject({
      entity: 'payment',
      status: 'authorized',
      captured: false,
      amount: 50000,
      currency: 'INR',
      order_id: created.id,
      fee: null,
      tax: null,
      amount_refunded: 0,
      refund_status: null,
    });
    const payId = String(paid.data!.id);
    expect(await orderByReceipt('story-1')).toMatchObject({ status: 'attempted', attempts: 1, amount_paid: 0 });

    const captured = await runJson(sb, ['payments', 'capture', payId, '--yes']);
    expect(captured.code, captured.stderr).toBe(0);
    expect(captured.data).toMatchObject({ id: payId, status: 'captured', captured: true, amount: 50000 });
    expect(typeof captured.data!.fee).toBe('number');
    expect(await orderByReceipt('story-1')).toMatchObject({ status: 'paid', amount_paid: 50000, amount_due: 0 });

    const partial = await runJson(sb, ['payments', 'refund', payId, '--amount', '20000', '--yes', '--receipt', 'rf-1']);
    expect(partial.code, partial.stderr).toBe(0);
    expect(partial.data).toMatchObject({
      entity: 'refund',
      amount: 20000,
      currency: 'INR',
      payment_id: payId,
      receipt: 'rf-1',
      status: 'processed',
    });
    for (const field of ['id', 'notes', 'acquirer_data', 'created_at', 'speed_requested', 'speed_processed'])
      expect(partial.data).toHaveProperty(field);
    const afterPartial = await runJson(sb, ['payments', 'get', payId]);
    expect(afterPartial.data).toMatchObject({ status: 'captured', amount_refunded: 20000, refund_status: 'partial' });

    const rest = await runJson(sb, ['payments', 'refund', payId, '--yes']);
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.data).toMatchObject({ amount: 30000, payment_id: payId });
    const afterFull = await runJson(sb, ['payments', 'get', payId]);
    expect(afterFull.data).toMatchObject({ status: 'refunded', amount_refunded: 50000, refund_status: 'full' });
    expect(await orderByReceipt('story-1')).toMatchObject({ status: 'paid' });
  });

  it('auto-captures when the order did not ask for manual capture', async () => {
    const order = await createOrder(sb, 1000, ['--receipt', 'auto-1']);
    const pay = await runJson(sb, ['sandbox', 'pay', order.id]);
    expect(pay.data).toMatchObject({ status: 'captured', captured: true });
    expect(await orderByReceipt('auto-1')).toMatchObject({ status: 'paid', amount_due: 0 });
  });
});

describe('rejections by the service exit 1 with its description', () => {
  it.each([
    [
      'capture with a different amount',
      { capturedFirst: false, amount: '100', currency: 'INR' },
      /Capture amount must be equal/,
    ],
    ['capture with a different currency', { capturedFirst: false, amount: '50000', currency: 'USD' }, /currency/i],
    [
      'capture of a captured payment',
      { capturedFirst: true, amount: '50000', currency: 'INR' },
      /already been captured/,
    ],
  ])('%s', async (_name, { capturedFirst, amount, currency }, message) => {
    const { payment } = await newAuthorizedPayment();
    const id = String(payment.id);
    if (capturedFirst) expect((await runJson(sb, ['payments', 'capture', id, '--yes'])).code).toBe(0);
    const res = await runJson(sb, ['payments', 'capture', id, '--amount', amount, '--currency', currency, '--yes']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(message);
  });

  it('refund above what remains: refused by payctl before sending (exit 2), from the payment read just before', async () => {
    const { payment } = await newAuthorizedPayment(3000);
    await runJson(sb, ['payments', 'capture', String(payment.id), '--yes']);
    expect((await runJson(sb, ['payments', 'refund', String(payment.id), '--amount', '2000', '--yes'])).code).toBe(0);
    const res = await runJson(sb, ['payments', 'refund', String(payment.id), '--amount', '1001', '--yes']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/only ₹10\.00 \(1000 paise\) remains.*nothing was sent/);
    expect((await runJson(sb, ['payments', 'get', String(payment.id)])).data).toMatchObject({ amount_refunded: 2000 });
  });

  it('a payment on a paid order', async () => {
    const { order, payment } = await newAuthorizedPayment();
    await runJson(sb, ['payments', 'capture', String(payment.id), '--yes']);
    const res = await runJson(sb, ['sandbox', 'pay', String(order.id)]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/already been paid/);
  });

  it('capture after the window: the clock makes it auto-refunded', async () => {
    const { payment } = await newAuthorizedPayment();
    const advanced = await runJson(sb, ['sandbox', 'clock', 'advance', '6d']);
    expect(advanced.code, advanced.stderr).toBe(0);
    const after = await runJson(sb, ['payments', 'get', String(payment.id)]);
    expect(after.data).toMatchObject({
      status: 'refunded',
      captured: false,
      amount_refunded: 50000,
      refund_status: 'full',
    });
    const res = await runJson(sb, ['payments', 'capture', String(payment.id), '--yes']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/capture window/);
  });
});

describe('credentials', () => {
  it('a wrong key exits 3', async () => {
    const res = await runJson(sb, ['payments', 'list'], { env: { PAYCTL_KEY_SECRET: 'wrong-secret-value' } });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/authentication failed/);
  });

  it('no credentials at all exits 3 and says how to set them', async () => {
    const home = mkdtempSync(join(tmpdir(), 'payctl-nocreds-'));
    const res = await runJson(sb, ['orders', 'list'], {
      env: { PAYCTL_HOME: home, PAYCTL_KEY_ID: undefined, PAYCTL_KEY_SECRET: undefined },
    });
    rmSync(home, { recursive: true, force: true });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/no credentials configured/);
  });
});

describe('bad input is refused with exit 2 and nothing is sent', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['decimal amount', ['orders', 'create', '--amount', '12.50', '--currency', 'INR'], /1250/],
    ['16 notes', [...ORDER_100, ...Array.from({ length: 16 }, (_, i) => ['--note', `k${i}=v`]).flat()], /15/],
    ['41-char receipt', [...ORDER_100, '--receipt', 'r'.repeat(41)], /40 characters/],
    ['count 101', ['orders', 'list', '--count', '101'], /100/],
    ['refund without --yes and no terminal', ['payments', 'refund', 'pay_AAAAAAAAAAAAAA', '--amount', '100'], /--yes/],
    [
      'capture without --yes and no terminal',
      ['payments', 'capture', 'pay_AAAAAAAAAAAAAA', '--amount', '100', '--currency', 'INR'],
      /--yes/,
    ],
    ['unknown option', ['orders', 'list', '--bogus'], /unknown option/],
    ['bad time', ['payments', 'list', '--from', 'next tuesday'], /--from/],
    ['path trick in an id', ['payments', 'get', 'pay_../orders'], /payment id/],
  ];
  it.each(cases)('%s', async (_name, args, message) => {
    const before = await sb.stats();
    const res = await runJson(sb, args);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(res.stderr.trim().split('\n')[0]).not.toMatch(/^\s+at /);
    expect((await sb.stats()).requests).toBe(before.requests);
  });

  it('--dry-run prints the request and sends nothing', async () => {
    const before = await sb.stats();
    const res = await runJson<Rec[]>(sb, ['--dry-run', ...ORDER_100, '--note', 'a=b']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.data).toEqual([
      {
        method: 'POST',
        url: `${sb.baseUrl}/orders`,
        body: { amount: 100, currency: 'INR', payment_capture: true, notes: { a: 'b' } },
      },
    ]);
    expect(res.stderr).toMatch(/nothing sent/);
    const after = await sb.stats();
    expect(after.requests).toBe(before.requests);
    expect(after.writes.orders).toBe(before.writes.orders);
  });
});
