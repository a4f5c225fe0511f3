import { describe, expect, it } from 'vitest';
import Razorpay from 'razorpay';
import { checkTrigger, pathsFor } from '../../../src/sandbox/webhook-catalogue';
import { encodeLikeService, eventMatches, signWebhook } from '../../../src/sandbox/webhook-signature';

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
  it('takes the paths of its event, as values', () => {
    expect(
      checkTrigger('refund.processed', ['order.amount=120000', 'refund.notes.why=late', 'payment.method=upi']),
    ).toEqual({
      overrides: { 'order.amount': 120000, 'refund.notes.why': 'late', 'payment.method': 'upi' },
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
  ])('%s %j is refused', (event, sets, why) => {
    const result = checkTrigger(event, sets);
    expect('refused' in result && result.refused).toMatch(why);
  });
});
