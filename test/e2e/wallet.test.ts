import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createOrder, run, runJson, sandboxForFile } from './harness';
import type { StatementEntry } from './harness';

const received: Array<{ event: string; payload: Record<string, { entity: Record<string, unknown> }> }> = [];
const hook = createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    received.push(JSON.parse(body) as (typeof received)[number]);
    res.end('ok');
  });
});

const sb = sandboxForFile(async () => {
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', () => r()));
  return ['--webhook', `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hooks`];
});
afterAll(() => {
  hook.close();
});

async function customer(contact = '+919876543210'): Promise<string> {
  const res = await runJson<{ id: string }>(sb, ['sandbox', 'customer', 'create', '--contact', contact]);
  expect(res.code, res.stderr).toBe(0);
  return res.data!.id;
}

/** A captured payment of `amount` paise, through an order and the simulated checkout. */
async function capturedPayment(amount = 100000): Promise<string> {
  const order = await createOrder(sb, amount);
  const pay = await runJson<{ id: string; status: string }>(sb, ['sandbox', 'pay', order.id]);
  expect(pay.data!.status).toBe('captured');
  return pay.data!.id;
}

const wallet = (args: string[]) => runJson<Record<string, unknown>>(sb, ['wallet', ...args, '--yes']);
const checkoutContact = ['--contact', '+919876543210', '--email', 'a@example.com'];
/** Pays `order` from the customer's wallet (`wallet pay`), with the contact and email checkout asks for. */
const walletPay = (customer: string, order: string, amount: number) =>
  wallet(['pay', '--customer', customer, '--order', order, '--amount', String(amount), ...checkoutContact]);
/** A fund account (bank account) of the customer's, for payouts. */
const fundAccount = (customer: string, name: string, ifsc: string, account: string) =>
  wallet([
    'fund-account',
    'create',
    '--customer',
    customer,
    '--name',
    name,
    '--ifsc',
    ifsc,
    '--account-number',
    account,
  ]);
const payout = (customer: string, fundAccountId: unknown, amount: number, extra: string[] = []) =>
  wallet([
    'payout',
    customer,
    '--fund-account',
    String(fundAccountId),
    '--amount',
    String(amount),
    '--purpose',
    'payout',
    ...extra,
  ]);
const balanceOf = async (c: string) =>
  Number((await runJson<{ balance: number }>(sb, ['wallet', 'balance', c])).data!.balance);

describe('wallet', () => {
  it('creates the wallet on the first transfer; JSON on stdout keeps the discontinued notice off stderr', async () => {
    const c = await customer();
    const pay = await capturedPayment(100000);
    const res = await wallet(['transfer', pay, '--customer', c, '--amount', '30000']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.data).toMatchObject({
      entity: 'transfer',
      status: 'processed',
      source: pay,
      recipient: c,
      amount: 30000,
      currency: 'INR',
    });
    expect(res.stderr).not.toMatch(/discontinued/i);
    expect(await balanceOf(c)).toBe(30000);
  });

  it('refuses to create a wallet for a contact that is not an Indian mobile', async () => {
    const c = await customer('+14155550100');
    const pay = await capturedPayment();
    const res = await wallet(['transfer', pay, '--customer', c, '--amount', '1000']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('is not a valid Indian mobile number');
  });

  it('refuses a transfer above the captured amount, and an unknown customer', async () => {
    const c = await customer();
    const pay = await capturedPayment(50000);
    const over = await wallet(['transfer', pay, '--customer', c, '--amount', '50001']);
    expect(over.code).toBe(1);
    expect(over.stderr).toContain('greater than the captured amount left to transfer (50000)');
    const first = await wallet(['transfer', pay, '--customer', c, '--amount', '40000']);
    expect(first.code, first.stderr).toBe(0);
    const rest = await wallet(['transfer', pay, '--customer', c, '--amount', '10001']);
    expect(rest.stderr).toContain('left to transfer (10000)');
    const nobody = await wallet(['transfer', pay, '--customer', 'cust_00000000000000', '--amount', '100']);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain('The customer cust_00000000000000 does not exist');
  });

  it('refuses a wallet payment the balance does not cover, with the service message', async () => {
    const c = await customer();
    await wallet(['credit', '--customer', c, '--amount', '5000']);
    const order = await createOrder(sb, 7000);
    const res = await walletPay(c, order.id, 7000);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Insufficient wallet balance: the customer must load enough balance first');
    expect(await balanceOf(c)).toBe(5000);
  });

  it('pays from the wallet with gateway ids and signature; a refund credits the wallet back', async () => {
    const c = await customer();
    await wallet(['credit', '--customer', c, '--amount', '9000']);
    const order = await createOrder(sb, 6000);
    const res = await walletPay(c, order.id, 6000);
    expect(res.code, res.stderr).toBe(0);
    expect(res.data!.gateway_order_id).toBe(order.id);
    expect(String(res.data!.gateway_signature)).toMatch(/^[0-9a-f]{64}$/);
    expect(await balanceOf(c)).toBe(3000);
    const refund = await runJson(sb, [
      'payments',
      'refund',
      String(res.data!.gateway_payment_id),
      '--amount',
      '2500',
      '--yes',
    ]);
    expect(refund.code, refund.stderr).toBe(0);
    expect(await balanceOf(c)).toBe(5500);
  });

  it('a reversed payout returns the money to the wallet; a processed one carries a utr', async () => {
    const c = await customer();
    await wallet(['credit', '--customer', c, '--amount', '20000']);
    const good = await fundAccount(c, 'Asha Rao', 'HDFC0001234', '50100012345678');
    const bad = await fundAccount(c, 'Asha Rao', 'SBIN0001234', '3210000');
    expect(good.code, good.stderr).toBe(0);
    const ok = await payout(c, good.data!.id, 8000, ['--narration', 'Sandbox refund 42']);
    const back = await payout(c, bad.data!.id, 5000);
    expect(ok.data).toMatchObject({ status: 'processing', amount: 8000 });
    expect(back.data).toMatchObject({ status: 'processing' });
    expect(await balanceOf(c)).toBe(7000);
    await run(['sandbox', 'clock', 'advance', '2h'], { env: sb.env });
    expect(await balanceOf(c)).toBe(12000); // the reversed 5000 came back

    const narr = await payout(c, good.data!.id, 100, ['--narration', 'No-dashes!']);
    expect(narr.code).toBe(2);
    expect(narr.stderr).toContain('a-z, A-Z, 0-9 and space');

    // payout.updated reaches the webhook with the utr; transfer.processed arrived for the credits.
    await expect
      .poll(() => received.filter((e) => e.event === 'payout.updated').length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(2);
    const updates = received.filter((e) => e.event === 'payout.updated').map((e) => e.payload.payout!.entity);
    expect(updates.find((p) => p.id === ok.data!.id)).toMatchObject({
      status: 'processed',
      utr: expect.stringMatching(/^SBX/),
    });
    expect(updates.find((p) => p.id === back.data!.id)).toMatchObject({ status: 'reversed' });
    expect(received.some((e) => e.event === 'transfer.processed')).toBe(true);
    const listed = await runJson<Array<{ event: string; delivery: string }>>(sb, ['sandbox', 'events']);
    expect(listed.data!.filter((e) => e.event === 'payout.updated').every((e) => e.delivery === 'delivered')).toBe(
      true,
    );
  });

  it("the statement's running balance equals credits minus debits after mixed movements", async () => {
    const c = await customer();
    const pay = await capturedPayment(60000);
    await wallet(['transfer', pay, '--customer', c, '--amount', '40000']);
    await wallet(['credit', '--customer', c, '--amount', '1500']);
    const order = await createOrder(sb, 12000);
    const wp = await walletPay(c, order.id, 12000);
    await runJson(sb, ['payments', 'refund', String(wp.data!.gateway_payment_id), '--amount', '2000', '--yes']);
    const fa = await fundAccount(c, 'A', 'HDFC0001234', '123456780000');
    await payout(c, fa.data!.id, 10000);
    await run(['sandbox', 'clock', 'advance', '2h'], { env: sb.env });

    const res = await runJson<StatementEntry[]>(sb, ['wallet', 'statement', c, '--all']);
    expect(res.code, res.stderr).toBe(0);
    const entries = [...res.data!].reverse(); // oldest first
    expect(entries.map((e) => e.type)).toEqual(['transfer', 'transfer', 'payment', 'refund', 'payout', 'reversal']);
    let running = 0;
    for (const e of entries) {
      running += e.credit - e.debit;
      expect(e.balance).toBe(running);
    }
    expect(running).toBe(40000 + 1500 - 12000 + 2000 - 10000 + 10000);
    expect(await balanceOf(c)).toBe(running);

    const table = await run(['wallet', 'statement', c, '-o', 'table'], { env: sb.env });
    expect(table.stdout.split('\n')[0]).toMatch(/created_at.*type.*credit.*debit.*balance.*description/);
  });

  it('checks INR and the contact format before sending', async () => {
    const before = (await sb.admin<{ requests: number }>('GET', '/stats')).requests;
    const res = await run(
      [
        'wallet',
        'pay',
        '--customer',
        'cust_00000000000001',
        '--order',
        'order_00000000000001',
        '--amount',
        '100',
        '--contact',
        'abc',
        '--email',
        'a@example.com',
        '--yes',
      ],
      { env: sb.env },
    );
    expect(res.code).toBe(2);
    expect((await sb.admin<{ requests: number }>('GET', '/stats')).requests).toBe(before);
  });
});
