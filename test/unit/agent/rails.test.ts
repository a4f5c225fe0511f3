import { describe, expect, it } from 'vitest';
import { Rails } from '../../../src/agent/rails';
import type { Plan } from '../../../src/agent/rails';

const plan = (amount: number, tool = 'payments_refund'): Plan => ({
  tool,
  args: { payment_id: 'pay_A', amount },
  requests: [{ method: 'POST', path: '/payments/pay_A/refund', body: { amount } }],
  amount,
  currency: 'INR',
});

describe('rails', () => {
  it('a token is good once, for the plan it was issued with', () => {
    const rails = new Rails({ tokenTtlMs: 60_000 });
    const p = plan(100);
    const { token } = rails.issue(p);
    expect(rails.redeem(token)).toEqual({ plan: p });
    expect(rails.redeem(token)).toMatchObject({ error: expect.stringMatching(/already used/) });
    expect(rails.redeem('pc_made_up')).toMatchObject({ error: expect.stringMatching(/unknown/) });
  });

  it('a token past its time is refused and spent', () => {
    let now = 1_000;
    const rails = new Rails({ tokenTtlMs: 500 }, () => now);
    const { token } = rails.issue(plan(100));
    now = 1_501;
    expect(rails.redeem(token)).toMatchObject({ error: expect.stringMatching(/expired/) });
    expect(rails.usage).toEqual({ writes: 0, moved: 0 });
  });

  it('caps name themselves, and are checked and reserved in one step when a write is sent', () => {
    const rails = new Rails({ tokenTtlMs: 60_000, maxAmount: 500, maxTotal: 800, maxWrites: 3 });
    expect(rails.check(plan(501))).toMatchObject({ cap: 'max-amount' });
    const a = rails.redeem(rails.issue(plan(500)).token) as { plan: Plan };
    const b = rails.redeem(rails.issue(plan(400)).token) as { plan: Plan }; // both fit on their own when planned
    expect(rails.take(a.plan)).toBeUndefined();
    expect(rails.take(b.plan)).toMatchObject({ cap: 'max-total', message: expect.stringMatching(/--max-total 800/) });
    expect(rails.usage).toEqual({ writes: 1, moved: 500 });
    const cancel = plan(0, 'subscriptions_cancel');
    expect(rails.take(cancel)).toBeUndefined();
    expect(rails.take(cancel)).toBeUndefined();
    expect(rails.take(cancel)).toMatchObject({ cap: 'max-writes' });
    expect(rails.usage).toEqual({ writes: 3, moved: 500 });
  });

  it('what a refused write reserved is free again; an unknown one stays counted', () => {
    const rails = new Rails({ tokenTtlMs: 60_000, maxTotal: 1000 });
    const p = plan(1000);
    expect(rails.take(p)).toBeUndefined();
    rails.release(p); // the service's own error object refused it
    expect(rails.usage).toEqual({ writes: 0, moved: 0 });
    expect(rails.take(p)).toBeUndefined(); // unknown outcome: never released
    expect(rails.take(plan(1))).toMatchObject({ cap: 'max-total' });
  });
});
