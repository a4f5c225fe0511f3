import { describe, expect, it } from 'vitest';
import { printed } from '../../../src/commands/invocation';
import { checkCommand } from '../../../src/commands/check';
import { expectedAnswer } from '../../../src/commands/payments/new-run';
import { Totals } from '../../../src/bulk/source';

const inv = (o: Partial<Parameters<typeof printed>[0] & object> = {}) => ({
  sandbox: false,
  yes: false,
  tz: 'Asia/Kolkata',
  ...o,
});

describe('printed: a command as the invocation would run it', () => {
  it.each([
    [inv({ profile: 'shop' }), ['payments', 'get', 'pay_1'], {}, 'payctl -p shop payments get pay_1'],
    [inv({ sandbox: true }), ['payments', 'get', 'pay_1'], {}, 'payctl --sandbox payments get pay_1'],
    [
      inv({ baseUrl: 'http://127.0.0.1:9/v1' }),
      ['orders', 'list', '--from', '1h'],
      { window: true },
      'payctl --base-url http://127.0.0.1:9/v1 orders list --from 1h --tz Asia/Kolkata',
    ],
    [
      inv({ profile: 'my shop', yes: true }),
      ['payments', 'refund', 'pay_1'],
      { write: true },
      "payctl -p 'my shop' payments refund pay_1 --yes",
    ],
    [inv({ yes: true }), ['payments', 'get', 'pay_1'], {}, 'payctl payments get pay_1'],
  ])('%#', (i, args, opts, want) => expect(printed(i, args, opts)).toBe(want));

  it('a receipt with a quote is quoted for the shell, and the exit-6 check names the profile and zone', () => {
    expect(checkCommand('POST', '/orders', { receipt: "it's" }, inv({ profile: 'shop' }))).toBe(
      "payctl -p shop orders list --receipt 'it'\\''s' --from 1h --tz Asia/Kolkata",
    );
  });
});

describe('expectedAnswer: what a new run over an earlier one asks to be typed', () => {
  const totals = (...amounts: Array<number | undefined>) => {
    const t = new Totals();
    amounts.forEach((amount, i) =>
      t.add({ line: i + 1, id: `pay_${i}`, amount, currency: amount ? 'INR' : undefined }),
    );
    return t;
  };
  it('the total in rupees or paise', () => {
    const e = expectedAnswer(2, totals(50_000_00, 50_000_00));
    for (const typed of ['₹1,00,000.00', '100000.00', '100000', '10000000 paise', ' 1,00,000.00 '])
      expect(e.accepts(typed), typed).toBe(true);
    for (const typed of ['10000000', '1000', '', 'yes', '2']) expect(e.accepts(typed), typed).toBe(false);
  });
  it('the number of payments when amounts are read when sent', () => {
    const e = expectedAnswer(3, totals(100, undefined, 200));
    expect(e.ask).toBe('the number of payments (3)');
    expect(e.accepts('3')).toBe(true);
    expect(e.accepts('₹3.00')).toBe(false);
  });
});
