import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { diagnose, firstDifference } from '../../../../src/commands/webhooks/diagnose';
import { encodeLikeService, signWebhook } from '../../../../src/contract/webhooks/signature';

const SECRET = 'whsec_unit_secret_1';
const KEY = 'unit_key_secret_2';
const raw = encodeLikeService({ event: 'payment.captured', payload: { note: 'a/b ₹' } });
const sig = signWebhook(raw, SECRET);
const cause = (body: string, signature: string, secret = SECRET) => {
  const d = diagnose(Buffer.from(body), signature, secret, KEY);
  return d.ok ? 'ok' : d.cause;
};

describe('webhooks verify: the likely cause', () => {
  it('a match', () => expect(cause(raw, sig)).toBe('ok'));
  it('uppercase hex still matches', () => expect(cause(raw, sig.toUpperCase())).toBe('ok'));
  it('re-serialized, with where the bytes first differ', () => {
    const c = cause(JSON.stringify(JSON.parse(raw)), sig);
    expect(c).toMatch(/re-serialized/);
    expect(c).toContain(`byte ${raw.indexOf('\\/')}`);
  });
  it('trailing newline', () => expect(cause(`${raw}\r\n`, sig)).toMatch(/trailing newline .*2 byte/));
  it('base64', () =>
    expect(cause(raw, createHmac('sha256', SECRET).update(raw).digest('base64'))).toMatch(/base64 where/));
  it('signed with the key secret', () => expect(cause(raw, signWebhook(raw, KEY))).toMatch(/key secret/));
  it('verifying with the key secret', () =>
    expect(cause(raw, sig, KEY)).toMatch(/secret given is the profile's key secret/));
  it('wrong secret', () => expect(cause(raw, signWebhook(raw, 'other'))).toMatch(/^wrong secret/));
  it('not hex at all', () => expect(cause(raw, 'nope')).toMatch(/not 64 hex/));
  it('any body, not only JSON', () => expect(cause('a=1&b=2', signWebhook('a=1&b=2', 'x'))).toMatch(/^wrong secret/));
  it('first difference', () => expect(firstDifference('ab\ncd', 'ab\nce')).toMatch(/^byte 4 \(line 2, column 2\)/));
});
