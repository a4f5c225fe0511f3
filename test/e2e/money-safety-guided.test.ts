import { describe, expect, it } from 'vitest';
import { faultProxyForFile } from './fault-proxy';
import { sandboxForFile, seedCaptured } from './harness';
import { KEY, onTerminal, toLastRefundQuestion } from './pty';

/** The guided refund takes the same path as `payments refund ID`: read right before sending, reconciled after. */
const sb = sandboxForFile();
const proxy = faultProxyForFile(sb);

const captured = async () => (await seedCaptured(sb, 1))[0]!;
const refunds = async (id: string) => (await sb.stats()).applied.refunds[id];

/** Walks the guided refund to its last question for a full refund of `id`. */
async function toLastQuestion(id: string, args: string[], env: Record<string, string>) {
  const t = onTerminal([...args, 'payments', 'refund', '-o', 'json'], env);
  await toLastRefundQuestion(t, id);
  return t;
}

describe('guided refund under faults', () => {
  it('an HTML 408 after the refund was applied (stored profile): confirmed by reading back, exit 0, applied once', async () => {
    const id = await captured();
    let faulted = false;
    proxy.setRule((r) =>
      r.method === 'POST' && !faulted ? ((faulted = true), { type: 'html-after', status: 408 }) : { type: 'pass' },
    );
    const t = await toLastQuestion(id, ['-p', 'viaproxy'], { PAYCTL_HOME: sb.home });
    await t.type('y', KEY.enter);
    expect(await t.exited).toBe(0);
    expect(t.text()).toMatch(/confirmed by reading it back: refund rfnd_\w+ carries our key/);
    expect(t.text()).not.toMatch(/refused/);
    expect(await refunds(id)).toEqual({ count: 1, amount: 50000 });
  }, 60_000);

  it('a refund made elsewhere while the questions were asked (environment credentials): exit 2, nothing sent', async () => {
    const id = await captured();
    proxy.setRule(() => ({ type: 'pass' }));
    const t = await toLastQuestion(id, [], { ...sb.env, PAYCTL_BASE_URL: proxy.baseUrl });
    await sb.api('POST', `/payments/${id}/refund`, { amount: 100 });
    const posts = proxy.log.filter((r) => r.method === 'POST').length;
    await t.type('y', KEY.enter);
    expect(await t.exited).toBe(2);
    expect(t.text()).toMatch(/only ₹499\.00 \(49900 paise\) remains.*nothing was sent/);
    expect(proxy.log.filter((r) => r.method === 'POST').length).toBe(posts);
    expect(await refunds(id)).toEqual({ count: 1, amount: 100 });
  }, 60_000);

  it('`payments refund ID` on a terminal asks with the payment read back, then refunds once through a lost answer', async () => {
    const id = await captured();
    let faulted = false;
    proxy.setRule((r) =>
      r.method === 'POST' && !faulted ? ((faulted = true), { type: 'drop-after' }) : { type: 'pass' },
    );
    const t = onTerminal(['-p', 'viaproxy', 'payments', 'refund', id, '--amount', '1000'], { PAYCTL_HOME: sb.home });
    const question = await t.waitFor('?');
    expect(question).toContain(
      `Refund ₹10.00 (1000 paise) of payment ${id} (captured, ₹500.00 (50000 paise), refunded so far ₹0.00`,
    );
    await t.type('y', KEY.enter);
    expect(await t.exited).toBe(0);
    expect(t.text()).toMatch(/confirmed by reading it back: refund rfnd_\w+ carries our key/);
    expect(await refunds(id)).toEqual({ count: 1, amount: 1000 });
  }, 60_000);
});
