import { describe, expect, it } from 'vitest';
import { capturePayments } from '../../../../src/commands/payments/capture';
import type { CapturePaymentsOptions } from '../../../../src/commands/payments/capture';
import { modeOf } from '../../../../src/commands/payments/mode';
import { OutcomeUnknownError } from '../../../../src/contract/errors';
import type { Answer } from '../fake-context';
import { fakeContext, expectUsageError } from '../fake-context';
import { PAY, PAY2, payment } from './fixtures';

const capture = (o: Partial<CapturePaymentsOptions> = {}): CapturePaymentsOptions => ({
  ids: [PAY],
  newRun: false,
  recheck: false,
  skipInvalid: false,
  ...o,
});
const lost: Answer = { status: 502, body: { message: 'bad gateway' } };
const authorized = { body: payment(PAY, { status: 'authorized', captured: false }) };
const captured = { body: payment(PAY, { status: 'captured', captured: true }) };

describe('mode: one payment, a bulk run, or guided', () => {
  it.each([
    [[PAY], {}, false, 'one'],
    [[PAY, PAY2], {}, false, 'bulk'],
    [[], { input: 'ids.txt' }, false, 'bulk'],
    [[], { recheck: true }, false, 'bulk'],
    [[PAY], { recheck: true }, false, 'bulk'],
    [[], {}, true, 'guided'],
    [[PAY], {}, true, 'one'],
    [[PAY], { journal: 'one.ndjson' }, false, 'bulk'],
    [[PAY], { concurrency: '2' }, false, 'bulk'],
    [[PAY], { newRun: true }, false, 'bulk'],
    [[PAY], { retryUnknown: true }, true, 'bulk'],
    [[PAY], { newRun: false, skipInvalid: false, retryUnknown: false }, false, 'one'],
  ] as const)('%j %j on a terminal=%s: %s', (ids, flags, canGuide, mode) => {
    expect(modeOf([...ids], { recheck: false, ...flags }, canGuide, 'capture')).toBe(mode);
  });

  it('no id and no terminal: a usage error naming the ways to give one', () => {
    expect(() => modeOf([], { recheck: false }, false, 'refund')).toThrow(
      /missing payment id: payctl payments refund PAY_ID \(or --input FILE/,
    );
  });
});

describe('payments capture (one payment)', () => {
  it('without --amount: reads the payment, asks with its amount, captures exactly that', async () => {
    const f = fakeContext({ routes: { 'GET /payments/:id': authorized, 'POST /payments/:id/capture': captured } });
    const result = await capturePayments(capture(), f.ctx);
    expect(f.questions).toEqual([`Capture ₹500.00 (50000 paise) of payment ${PAY}?`]);
    expect(f.sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /payments/${PAY}`,
      `POST /payments/${PAY}/capture`,
    ]);
    expect(f.sent[1]!.body).toEqual({ amount: 50000, currency: 'INR' });
    expect(result).toMatchObject({ type: 'one', kind: 'payment', data: { status: 'captured' } });
    expect(f.stderr()).toBe('');
  });

  it('with --amount and --currency: captures them without reading first', async () => {
    const f = fakeContext({ routes: { 'POST /payments/:id/capture': captured } });
    await capturePayments(capture({ amount: '50000', currency: 'INR' }), f.ctx);
    expect(f.sent).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: `/payments/${PAY}/capture`,
        body: { amount: 50000, currency: 'INR' },
      }),
    ]);
  });

  it('declined at the question: nothing is captured', async () => {
    const f = fakeContext({ confirm: false, routes: { 'GET /payments/:id': authorized } });
    await expect(capturePayments(capture(), f.ctx)).rejects.toThrow(/declined at a confirmation: nothing was sent/);
    expect(f.sent.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it.each([
    ['--amount without --currency', capture({ amount: '50000' }), /--amount and --currency go together/],
    ['--currency without --amount', capture({ currency: 'INR' }), /--amount and --currency go together/],
    ['a decimal amount', capture({ amount: '500.00', currency: 'INR' }), /--amount/],
    ['a bad id', capture({ ids: ['pay-1'] }), /payment id must look like/],
    ['no id without a terminal', capture({ ids: [] }), /missing payment id/],
  ])('%s: a usage error, nothing sent', async (_name, opts, message) => {
    await expectUsageError(capturePayments, opts, message);
  });

  it.each([
    [
      'without --amount: placeholders, read when run for real',
      capture(),
      { amount: `<amount of ${PAY}>` },
      /read from/,
    ],
    ['with --amount', capture({ amount: '100', currency: 'INR' }), { amount: 100, currency: 'INR' }, undefined],
  ])('--dry-run %s; nothing sent', async (_name, opts, body, note) => {
    const f = fakeContext({ settings: { dryRun: true } });
    const result = await capturePayments(opts, f.ctx);
    expect(result).toMatchObject({
      type: 'dry-run',
      requests: [{ method: 'POST', path: `/payments/${PAY}/capture`, body }],
    });
    if (note) expect((result as { note?: string }).note).toMatch(note);
    expect(f.sent).toHaveLength(0);
  });
});

describe('payments capture: a lost answer is reconciled by reading the payment back', () => {
  /** POST answers come from `posts` in turn; GET answers from `reads`. */
  const scripted = (posts: Answer[], reads: Answer[]) => {
    let p = 0;
    let g = 0;
    return {
      'GET /payments/:id': () => reads[Math.min(g++, reads.length - 1)]!,
      'POST /payments/:id/capture': () => posts[Math.min(p++, posts.length - 1)]!,
    };
  };

  it.each([
    ['read back captured: done, not sent again', [lost], [captured], 1],
    ['read back still authorized: sent again (the service never captures twice)', [lost, captured], [authorized], 2],
    [
      "an answer that is another payment's record: read back, captured, not sent again",
      [{ body: payment(PAY2) }],
      [captured],
      1,
    ],
    ['an answer that says authorized: read back, captured', [authorized], [captured], 1],
  ])('%s', async (_name, posts, reads, postCount) => {
    const f = fakeContext({ routes: scripted(posts, reads) });
    const result = await capturePayments(capture({ amount: '50000', currency: 'INR' }), f.ctx);
    expect(result).toMatchObject({ type: 'one', kind: 'payment', data: { id: PAY, status: 'captured' } });
    expect(f.sent.filter((r) => r.method === 'POST')).toHaveLength(postCount);
    expect(f.stderr()).toMatch(`first answer was lost; confirmed by reading the payment back: ${PAY} is captured`);
  });

  it.each([
    ['read back failed', [lost], [{ body: payment(PAY, { status: 'failed', captured: false }) }]],
    ['could not be read back', [lost], [{ status: 500, body: { message: 'down' } }]],
    ['lost every time', [lost], [authorized]],
  ])('%s: outcome unknown (exit 6) naming the command to check', async (_name, posts, reads) => {
    const f = fakeContext({ routes: scripted(posts, reads) });
    const err = await capturePayments(capture({ amount: '50000', currency: 'INR' }), f.ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as OutcomeUnknownError).hints.join('\n')).toMatch(`payctl payments get ${PAY}`);
    expect(f.sent.filter((r) => r.method === 'POST').length).toBeLessThanOrEqual(4);
  });
});
