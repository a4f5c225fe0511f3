import { describe, expect, it } from 'vitest';
import { parseAmount } from '../../../src/contract/values/amount';
import { parseCurrency } from '../../../src/contract/values/currency';
import { parseDuration } from '../../../src/contract/values/duration';
import { parseId } from '../../../src/contract/values/id';
import { parseInteger } from '../../../src/contract/values/integer';
import { parseNotes } from '../../../src/contract/values/notes';

const verdict = (r: { ok: boolean; value?: unknown; error?: string }) => (r.ok ? r.value : `error: ${r.error}`);

describe('parseAmount', () => {
  it.each([
    ['50000', 'INR', 50000],
    [' 50000\n', 'INR', 50000],
    ['1', 'INR', 1],
  ])('%j %s -> %j', (raw, cur, want) => expect(verdict(parseAmount(raw, cur))).toBe(want));

  it.each([
    ['12.50', 'INR', /paise.*did you mean 1250\?/],
    ['500.5', 'INR', /did you mean 50050\?/],
    ['9.99', 'USD', /cents.*did you mean 999\?/],
    ['100.5', 'JPY', /smallest currency unit/],
    ['0', 'INR', /at least 1/],
    ['-5', 'INR', /whole number/],
    ['1e3', 'INR', /whole number/],
    ['0x10', 'INR', /whole number/],
    ['', 'INR', /whole number/],
    ['١٢', 'INR', /whole number/],
    ['5 000', 'INR', /whole number/],
    ['99999999999999999999', 'INR', /too large/],
  ])('%j %s is refused', (raw, cur, message) => expect(verdict(parseAmount(raw, cur))).toMatch(message));
});

describe('parseNotes', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => `k${i}=v`);
  it.each([
    [['reason=damaged'], { reason: 'damaged' }],
    [['url=https://x.example/?a=b'], { url: 'https://x.example/?a=b' }],
    [['empty='], { empty: '' }],
    [[`k=${'v'.repeat(256)}`], { k: 'v'.repeat(256) }],
  ])('%j', (pairs, want) => expect(verdict(parseNotes(pairs))).toEqual(want));

  it.each([
    [many(16), /at most 15/],
    [[`k=${'v'.repeat(257)}`], /257 characters/],
    [['novalue'], /key=value/],
    [['=v'], /needs a key/],
    [['a=1', 'a=2'], /twice/],
    [['__proto__=x'], /"__proto__" is not a plain name/],
    [['constructor=x'], /"constructor" is not a plain name/],
    [['toString=x'], /not a plain name/],
    [['  =x'], /needs a key/],
    [[`${'k'.repeat(257)}=x`], /longer than 256/],
  ])('%j is refused', (pairs, message) => expect(verdict(parseNotes(pairs))).toMatch(message));

  it('counts characters, not bytes', () => expect(parseNotes([`k=${'₹'.repeat(256)}`]).ok).toBe(true));
});

describe('small parsers', () => {
  it.each([
    ['90s', 90],
    ['30m', 1800],
    ['24h', 86400],
    ['6d', 518400],
    ['2w', 1209600],
    ['1d12h', 129600],
    ['3600', 3600],
  ])('duration %s = %i s', (raw, want) => expect(verdict(parseDuration(raw))).toBe(want));

  it.each(['', '-1d', '5y', '1.5h', 'soon'])('duration %j is refused', (raw) =>
    expect(parseDuration(raw).ok).toBe(false),
  );

  it.each([
    ['pay_29QQoUBi66xm2f', true],
    [' pay_29QQoUBi66xm2f \n', true],
    ['pay_../orders', false],
    ['pay_%2F..', false],
    ['pay_ab cd', false],
    ['order_29QQoUBi66xm2f', false],
    ['pay_', false],
    ["pay_1' OR '1'='1", false],
    ['pay_ünïcode', false],
  ])('payment id %j ok=%s', (raw, ok) => expect(parseId(raw, 'payment').ok).toBe(ok));

  it('keeps the trimmed id', () =>
    expect(verdict(parseId(' pay_29QQoUBi66xm2f ', 'payment'))).toBe('pay_29QQoUBi66xm2f'));

  it.each([
    ['100', true],
    ['101', false],
    ['0', false],
    ['1.5', false],
    ['ten', false],
  ])('count %s ok=%s', (raw, ok) => expect(parseInteger(raw, '--count', { min: 1, max: 100 }).ok).toBe(ok));

  it('names the option in its message', () =>
    expect(verdict(parseInteger('101', '--count', { min: 1, max: 100 }))).toMatch(
      /--count must be a whole number from 1 to 100: got "101"/,
    ));
  it.each([
    ['inr', 'INR'],
    ['usd ', 'USD'],
  ])('currency %j -> %s', (raw, want) => expect(verdict(parseCurrency(raw))).toBe(want));
  it.each(['IN', 'RUPEE', '₹'])('currency %j is refused', (raw) => expect(parseCurrency(raw).ok).toBe(false));
});
