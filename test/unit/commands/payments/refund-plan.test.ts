import { describe, expect, it } from 'vitest';
import { refundPayments } from '../../../../src/commands/payments/refund';
import type { RefundPaymentsOptions } from '../../../../src/commands/payments/refund';
import type { Caller, UnknownRefund } from '../../../../src/commands/context';
import { OutcomeUnknownError, UsageError } from '../../../../src/contract/errors';
import { fakeContext } from '../fake-context';
import type { Routes } from '../fake-context';
import { PAY, noRefundFlags, payment } from './fixtures';

const NOW = Date.parse('2026-11-23T10:00:00Z');
const KEY = 'pcs_given_key_0001';
const opts = (o: Partial<RefundPaymentsOptions> = {}): RefundPaymentsOptions => ({
  ids: [PAY],
  ...noRefundFlags,
  read: true,
  ...o,
});
/** A captured payment of ₹500.00 with ₹300.00 refunded already: ₹200.00 remains; its refunds list `keys`. */
const routes = (...keys: string[]): Routes => ({
  'GET /payments/:id': { body: payment(PAY, { amount_refunded: 30000 }) },
  'GET /payments/:id/refunds': {
    body: {
      entity: 'collection',
      count: keys.length,
      items: keys.map((k, i) => ({ id: `rfnd_${i}`, entity: 'refund', amount: 5000, notes: { payctl_key: k } })),
    },
  },
});
/** An assistant as the caller: its record of an unknown refund, and its tools as the way to run a command. */
const caller = (pending?: UnknownRefund, earlier?: { key: string; amount: number }): Caller => ({
  unknownRefund: (id) => (id === PAY ? pending : undefined),
  keyedRefund: (id, key) => (id === PAY && key === earlier?.key ? earlier.amount : undefined),
  command: (words, args) => `${words.join('_')} ${JSON.stringify(args)}`,
});
const plan = (o: Partial<RefundPaymentsOptions>, c?: Caller, keys: string[] = []) => {
  const f = fakeContext({ routes: routes(...keys), settings: { dryRun: true }, nowMs: NOW });
  return { f, result: refundPayments(opts(o), c ? { ...f.ctx, caller: c } : f.ctx) };
};
const writes = (sent: Array<{ method: string }>) => sent.filter((r) => r.method !== 'GET');

describe('payments refund --dry-run --read: the plan read now, as the MCP tool shows it', () => {
  it('no --amount: all that remains and a new key, fixed, in the request exactly as it would be sent', async () => {
    const { f, result } = plan({ notes: ['reason=late'] });
    const r = await result;
    expect(r).toMatchObject({ type: 'dry-run', state: { status: 'captured', amount: 50000, amount_refunded: 30000 } });
    const dry = r as { requests: { path: string; body: unknown; headers?: unknown }[]; fixed: Record<string, string> };
    const key = dry.fixed['idempotency-key']!;
    expect(key).toMatch(/^pcs_[A-Za-z0-9_-]{20}$/);
    expect(dry.fixed).toEqual({ amount: '20000', 'idempotency-key': key });
    expect(dry.requests).toHaveLength(1);
    expect(dry.requests[0]).toMatchObject({
      path: `/payments/${PAY}/refund`,
      body: { amount: 20000, notes: { reason: 'late', payctl_key: key } },
      headers: { 'X-Refund-Idempotency': key },
    });
    expect(f.sent.map((s) => `${s.method} ${s.path}`)).toEqual([`GET /payments/${PAY}`]);
  });

  it("the key given is the plan's; more than remains, or a malformed key, is refused with nothing sent", async () => {
    await expect(plan({ amount: '5000', idempotencyKey: KEY }).result).resolves.toMatchObject({
      fixed: { amount: '5000', 'idempotency-key': KEY },
    });
    const over = plan({ amount: '20001' });
    await expect(over.result).rejects.toThrow(/only ₹200\.00 \(20000 paise\) remains.*nothing was sent/);
    expect(writes(over.f.sent)).toEqual([]);
    await expect(plan({ idempotencyKey: 'short' }).result).rejects.toThrow(UsageError);
  });

  it('a key the caller sent a refund under before keeps that amount, whatever its outcome', async () => {
    const earlier = { key: KEY, amount: 26000 };
    // No amount: the earlier one, even past what remains now (the send then refuses it, sending nothing).
    await expect(plan({ idempotencyKey: KEY }, caller(undefined, earlier)).result).resolves.toMatchObject({
      fixed: { amount: '26000', 'idempotency-key': KEY },
    });
    const other = plan({ idempotencyKey: KEY, amount: '13' }, caller(undefined, earlier));
    await expect(other.result).rejects.toThrow(/key .* was sent for a refund of ₹260\.00 .*nothing was sent/);
    expect(writes(other.f.sent)).toEqual([]);
    // Another key is a new refund: all that remains.
    await expect(plan({}, caller(undefined, earlier)).result).resolves.toMatchObject({ fixed: { amount: '20000' } });
  });

  it('without --read, a dry run reads nothing: the request as given', async () => {
    const { f, result } = plan({ amount: '5000', read: false });
    expect(await result).toMatchObject({ type: 'dry-run', requests: [{ body: { amount: 5000 } }] });
    expect((await result) as object).not.toHaveProperty('fixed');
    expect(f.sent).toEqual([]);
  });
});

describe("the caller's unknown refund on record: its key is reused, or the plan refused", () => {
  const pending = { key: 'pcs_pending_key_01', amount: 5000, sentAtMs: NOW - 3_600_000 };

  it("another amount or key is refused, naming the check in the caller's own terms", async () => {
    for (const o of [{ amount: '7000' }, { idempotencyKey: KEY }]) {
      const { f, result } = plan(o, caller(pending));
      await expect(result).rejects.toThrow(UsageError);
      await expect(result).rejects.toThrow(
        `no known outcome on record (key ${pending.key}): check it first with ` +
          `payments_refund {"id":"${PAY}","idempotency-key":"${pending.key}"}`,
      );
      expect(writes(f.sent)).toEqual([]);
    }
  });

  it('the same refund (or no amount) reuses its key and amount, even past what remains now', async () => {
    for (const o of [{}, { amount: '25000' }]) {
      const { result } = plan(o, caller({ ...pending, amount: 25000 }), [pending.key]);
      const r = (await result) as { fixed: unknown; note: string; requests: { body: unknown }[] };
      expect(r.fixed).toEqual({ amount: '25000', 'idempotency-key': pending.key });
      expect(r.requests[0]!.body).toMatchObject({ amount: 25000, notes: { payctl_key: pending.key } });
      expect(r.note).toMatch(`unknown outcome is on record: this plan reuses its key ${pending.key}`);
    }
  });

  it('while its request may still arrive and no refund carries the key: refused with when to plan again', async () => {
    const { f, result } = plan({}, caller({ ...pending, sentAtMs: NOW - 1_000 }));
    await expect(result).rejects.toThrow(OutcomeUnknownError);
    await expect(result).rejects.toThrow(
      new RegExp(
        `may still arrive for \\d+ s more.*nothing was sent: check with payments_get \\{"id":"${PAY}"\\}; ` +
          'plan it again after 2026-11-23T10:\\d\\d:\\d\\dZ \\(in \\d+ s\\)',
      ),
    );
    expect(writes(f.sent)).toEqual([]);
  });
});
