import { describe, expect, it } from 'vitest';
import { repeatedKey } from '../../../src/contract/values/json';

describe('repeatedKey: a key JSON.parse would silently drop', () => {
  it.each([
    ['{"payment_id":"pay_1","amount":100,"amount":90000}', 'amount'],
    ['{"a":1,"notes":{"x":"1","x":"2"}}', 'notes.x'],
    ['[{"a":1},{"a":2,"b":{"c":1},"b":3}]', 'b'],
    ['{"a\\"b":1,"a\\"b":2}', 'a"b'],
  ])('%s: %s', (text, key) => expect(repeatedKey(text)).toBe(key));

  it.each([
    '{"payment_id":"pay_1","amount":100}',
    '{"a":{"a":{"a":1}}}',
    '[{"a":1},{"a":2}]',
    '{"a":"amount","amount":"a , amount"}',
    '{"s":"{\\"a\\":1,\\"a\\":2}"}',
  ])('%s: none', (text) => expect(repeatedKey(text)).toBeUndefined());
});
