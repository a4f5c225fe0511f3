import { describe, expect, it } from 'vitest';
import { capturedPayment, run, sandboxForFile } from './harness';
import { KEY, onTerminal, toLastRefundQuestion } from './pty';

const sb = sandboxForFile();

async function authorizedPayment(): Promise<string> {
  const { payment_ids } = await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 1 });
  return payment_ids[0]!;
}

const payment = async (id: string) =>
  (await sb.api<{ status: string; amount_refunded: number }>('GET', `/payments/${id}`)).body;
const refundWrites = async (id: string) =>
  (await sb.admin<{ applied: { refunds: Record<string, { count: number }> } }>('GET', '/stats')).applied.refunds[id]
    ?.count ?? 0;

describe('guided refund on a terminal', () => {
  it('refunds exactly the partial amount entered, after refusing one above what remains', async () => {
    const id = await capturedPayment(sb);
    const t = onTerminal(['payments', 'refund', '-o', 'json'], sb.env);
    await t.waitFor('Payment id to refund');
    await t.type('pay_nosuchpayment1', KEY.enter);
    await t.waitFor('no payment pay_nosuchpayment1');
    await t.type(...Array(18).fill(KEY.backspace), ` ${id} `, KEY.enter);
    const shown = await t.waitFor('Refund how much?');
    expect(shown).toMatch(/status\s+captured/);
    expect(shown).toMatch(/amount\s+₹500\.00 \(50000 paise\)/);
    expect(shown).toMatch(/already refunded\s+₹0\.00/);
    expect(shown).toMatch(/created\s+20\d\d-/);
    await t.type(KEY.down, KEY.enter);
    await t.waitFor('Amount to refund in paise (at most 50000 = ₹500.00)');
    await t.type('60000', KEY.enter);
    await t.waitFor('at most ₹500.00 (50000 paise) remains');
    await t.type(...Array(5).fill(KEY.backspace), '12345');
    await t.waitFor('= ₹123.45');
    await t.type(KEY.enter);
    await t.waitFor('Receipt');
    await t.type('guided-1', KEY.enter);
    await t.waitFor('Note (key=value');
    await t.type('reason=damaged', KEY.enter);
    await t.waitFor('Another note');
    await t.type(KEY.enter);
    const question = await t.waitFor('now?');
    expect(question).toContain(`Refund ₹123.45 (12345 paise) of payment ${id}`);
    expect(await refundWrites(id)).toBe(0);
    await t.type('y', KEY.enter);
    expect(await t.exited).toBe(0);
    expect(t.text()).toContain('"amount": 12345');
    const after = await payment(id);
    expect(after.amount_refunded).toBe(12345);
    expect(await refundWrites(id)).toBe(1);
  }, 60_000);

  it('Ctrl-C at the amount leaves the payment untouched and exits 130', async () => {
    const id = await capturedPayment(sb);
    const before = (await sb.admin<{ requests: number }>('GET', '/stats')).requests;
    const t = onTerminal(['payments', 'refund'], sb.env);
    await t.waitFor('Payment id to refund');
    await t.type(id, KEY.enter);
    await t.waitFor('Refund how much?');
    await t.type(KEY.down, KEY.enter);
    await t.waitFor('Amount to refund');
    await t.type('100', KEY.ctrlC);
    expect(await t.exited).toBe(130);
    expect(t.text()).toContain('payctl: interrupted at a question: nothing was sent');
    expect((await payment(id)).amount_refunded).toBe(0);
    expect(await refundWrites(id)).toBe(0);
    // Only the reads of the payment id question reached the service.
    const stats = await sb.admin<{ requests: number }>('GET', '/stats');
    expect(stats.requests - before).toBeLessThanOrEqual(3);
  }, 60_000);

  it('answering no to the last question sends nothing', async () => {
    const id = await capturedPayment(sb);
    const t = onTerminal(['payments', 'refund'], sb.env);
    const question = await toLastRefundQuestion(t, id);
    expect(question).toContain('The payment will be refunded in full');
    await t.type('n', KEY.enter);
    expect(await t.exited).toBe(8);
    expect(t.text()).toContain('payctl: declined at a confirmation: nothing was sent');
    expect(await refundWrites(id)).toBe(0);
  }, 60_000);
});

describe('guided capture on a terminal', () => {
  it('refuses a payment that is not authorized, then captures one that is', async () => {
    const captured = await capturedPayment(sb);
    const id = await authorizedPayment();
    const t = onTerminal(['payments', 'capture', '-o', 'json'], sb.env);
    await t.waitFor('Payment id to capture');
    await t.type(captured, KEY.enter);
    await t.waitFor('only an authorized payment can be captured');
    await t.type(...Array(captured.length).fill(KEY.backspace), id, KEY.enter);
    const question = await t.waitFor('now?');
    expect(question).toContain(`Capture ₹500.00 (50000 paise) of payment ${id}`);
    await t.type('y', KEY.enter);
    expect(await t.exited).toBe(0);
    expect((await payment(id)).status).toBe('captured');
  }, 60_000);
});

describe('without a terminal payctl never asks', () => {
  it('a refund without --yes exits 2 and the sandbox sees no request', async () => {
    const id = await capturedPayment(sb);
    const before = (await sb.admin<{ requests: number }>('GET', '/stats')).requests;
    const res = await run(['payments', 'refund', id, '--amount', '100'], { env: sb.env });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--yes/);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect((await sb.admin<{ requests: number }>('GET', '/stats')).requests).toBe(before);
  });

  it('a refund with no id names what is missing', async () => {
    const res = await run(['payments', 'refund'], { env: sb.env });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/missing payment id/);
  });

  it('profile add names the missing flag instead of prompting', async () => {
    const res = await run(['profile', 'add', 'ci', '--base-url', 'https://api.example.com/v1'], {
      env: { PAYCTL_HOME: sb.home },
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/missing --key-id/);
  });
});

describe('profile add on a terminal', () => {
  it('asks for what is missing and never shows the secret', async () => {
    const t = onTerminal(['profile', 'add', 'asked', '--base-url', 'https://api.example.com/v1'], {
      PAYCTL_HOME: sb.home,
    });
    await t.waitFor('Key id');
    await t.type('rzp_test_asked', KEY.enter);
    await t.waitFor('Key secret');
    await t.type('s3cr3t-typed-value', KEY.enter);
    expect(await t.exited).toBe(0);
    expect(t.text()).not.toContain('s3cr3t-typed-value');
    const shown = await run(['profile', 'show', 'asked', '-o', 'json'], { env: { PAYCTL_HOME: sb.home } });
    expect(shown.stdout).toContain('rzp_test_asked');
    expect(shown.stdout).not.toContain('s3cr3t-typed-value');
  }, 30_000);
});
