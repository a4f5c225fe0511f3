import { describe, expect, it } from 'vitest';
import { fieldsToBody, parseApiPath, parseField } from '../../../../src/commands/api/request';
import type { Field } from '../../../../src/commands/api/request';
import { checkCommand } from '../../../../src/commands/check';

const field = (pair: string, typed = true) => {
  const r = parseField(pair, typed);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};

describe('payctl api fields', () => {
  it.each([
    ['amount=5000', 5000],
    ['ratio=-1.5', -1.5],
    ['flag=true', true],
    ['flag=false', false],
    ['x=null', null],
    ['receipt=00042', '00042'],
    ['id=pay_1', 'pay_1'],
    ['empty=', ''],
    ['eq=a=b', 'a=b'],
    ['big=123456789012345678901', '123456789012345678901'],
  ])('-F %s -> %j', (pair, value) => expect(field(pair).value).toEqual(value));

  it('-f keeps text', () => expect(field('amount=5000', false).value).toBe('5000'));

  it.each(['novalue', '=x', 'bad key=1', 'a]b=1'])('refuses -F %j', (pair) =>
    expect(parseField(pair, true).ok).toBe(false),
  );

  it('nests a[b] and appends a[]', () => {
    const fields: Field[] = [
      'amount=100',
      'notes[reason]=damaged',
      'notes[batch]=7',
      'transfers[]=1',
      'transfers[]=2',
    ].map((p) => field(p));
    expect(fieldsToBody(fields)).toEqual({
      ok: true,
      value: { amount: 100, notes: { reason: 'damaged', batch: 7 }, transfers: [1, 2] },
    });
    expect(fieldsToBody([field('a=1'), field('a=2')]).ok).toBe(false);
    expect(fieldsToBody([field('a=1'), field('a[b]=2')]).ok).toBe(false);
  });
});

describe('payctl api paths', () => {
  it.each([
    ['/payments/pay_1', '/payments/pay_1', {}],
    ['payments/pay_1', '/payments/pay_1', {}],
    ['/v1/payments?count=2&skip=1', '/payments', { count: '2', skip: '1' }],
    ['/v1', '/', {}],
    ['/v1x/orders', '/v1x/orders', {}],
  ])('%s -> %s %j', (raw, path, query) =>
    expect(parseApiPath(raw, '/v1')).toEqual({ ok: true, value: { path, query } }),
  );

  it.each([
    'https://evil.example/v1/orders',
    '/payments/../orders',
    '/payments/%2e%2e/x',
    '/a//b',
    '/pay ments',
    '/a/%2Fb',
  ])('refuses %s', (raw) => {
    expect(parseApiPath(raw, '/v1').ok).toBe(false);
  });
});

describe('exit 6 names the command to check', () => {
  it.each([
    ['POST', '/payments/pay_1/refund', {}, 'payctl payments get pay_1'],
    ['POST', '/payments/pay_1/capture', {}, 'payctl payments get pay_1'],
    ['POST', '/subscriptions/sub_1/cancel', {}, 'payctl subscriptions get sub_1'],
    ['POST', '/orders', { receipt: 'r 1' }, "payctl orders list --receipt 'r 1' --from 1h"],
    ['POST', '/orders', {}, 'payctl orders list --from 1h'],
    ['POST', '/customers/cust_1/payouts', {}, 'payctl wallet statement cust_1 --from today'],
    ['POST', '/plans', {}, 'payctl api GET /plans -F count=5'],
  ])('%s %s', (method, path, body, want) => expect(checkCommand(method, path, body)).toBe(want));
});
