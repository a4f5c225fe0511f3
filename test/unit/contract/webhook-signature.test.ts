import { describe, expect, it } from 'vitest';
import Razorpay from 'razorpay';
import { checkTrigger, pathsFor } from '../../../src/contract/webhooks/catalogue';
import { encodeLikeService, eventMatches, signWebhook } from '../../../src/contract/webhooks/signature';

describe("the service's webhook bytes", () => {
  it('escapes / and every non-ASCII character, and is the same JSON', () => {
    const value = { url: 'https://a.example/b', note: 'café ₹500 😀', n: 1 };
    const bytes = encodeLikeService(value);
    expect(bytes).toBe('{"url":"https:\\/\\/a.example\\/b","note":"caf\\u00e9 \\u20b9500 \\ud83d\\ude00","n":1}');
    expect(JSON.parse(bytes)).toEqual(value);
    expect(JSON.stringify(JSON.parse(bytes))).not.toBe(bytes);
  });

  it('signs as the SDK verifies: hex HMAC-SHA256 of the raw bytes', () => {
    const body = encodeLikeService({ event: 'payment.captured', a: '1/2' });
    const sig = signWebhook(body, 'whsec_test_secret');
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
    expect(Razorpay.validateWebhookSignature(body, sig, 'whsec_test_secret')).toBe(true);
    expect(Razorpay.validateWebhookSignature(JSON.stringify(JSON.parse(body)), sig, 'whsec_test_secret')).toBe(false);
  });

  it('--events globs', () => {
    expect(eventMatches([], 'refund.failed')).toBe(true);
    expect(eventMatches(['payment.*', 'refund.processed'], 'payment.captured')).toBe(true);
    expect(eventMatches(['payment.*', 'refund.processed'], 'refund.created')).toBe(false);
    expect(eventMatches(['payment.*'], 'paymentXcaptured')).toBe(false);
  });
});

describe('trigger overrides', () => {
  it('without overrides, bodies carry a `/` and non-ASCII text, as real ones do', () => {
    for (const event of ['payment.captured', 'refund.processed', 'subscription.charged']) {
      const checked = checkTrigger(event, []);
      if ('refused' in checked) throw new Error(checked.refused);
      const text = JSON.stringify(checked.bodies);
      expect(text).toMatch(/\//);
      expect(text).toMatch(/[^\x00-\x7f]/);
    }
  });

  it('takes the paths of its event, as values', () => {
    expect(
      checkTrigger('refund.processed', ['order.amount=120000', 'refund.notes.why=late', 'payment.method=upi']),
    ).toMatchObject({
      overrides: { 'order.amount': 120000, 'refund.notes.why': 'late', 'payment.method': 'upi' },
      bodies: { order: { amount: 120000 }, refund: { notes: { why: 'late' } }, payment: { method: 'upi' } },
    });
    expect(pathsFor('subscription.charged')).toContain('subscription.notes.KEY');
  });

  it.each([
    ['payment.teleported', [], /cannot trigger "payment.teleported"/],
    ['payment.captured', ['refund.amount=100'], /refund\.amount does not apply to payment\.captured/],
    ['payment.captured', ['order.colour=red'], /order\.colour: no such override/],
    ['payment.captured', ['order.amount=12.50'], /whole number/],
    ['payment.captured', ['payment.method=cash'], /one of card, netbanking, wallet, upi/],
    ['subscription.charged', ['plan.amount'], /path=value/],
    ['refund.processed', ['refund.amount=60000'], /refund\.amount=60000: more than the payment's 50000/],
    ['payment.captured', ['order.receipt=' + 'r'.repeat(41)], /--set order\.receipt: may not be greater than 40/],
    ['payment.captured', ['order.amount=100', 'order.amount=200'], /order\.amount is given twice/],
    ['subscription.charged', ['subscription.total_count=10001'], /--set subscription\.total_count/],
    ['payment.captured', ['order.notes.__proto__=x'], /note key "__proto__" is not a plain name/],
    ['refund.processed', ['refund.notes.constructor=x'], /"constructor" is not a plain name/],
    ['subscription.charged', ['subscription.notes. =x'], /subscription\.notes: a note needs a key/],
    ['payment.captured', [`order.notes.${'k'.repeat(257)}=x`], /longer than 256/],
  ])('%s %j is refused', (event, sets, why) => {
    const result = checkTrigger(event, sets);
    expect('refused' in result && result.refused).toMatch(why);
  });
});
