import { describe, expect, it } from 'vitest';
import { isJsonObject, parseJson } from '../../../src/contract/values/json';

describe('JSON values', () => {
  it('an object is neither null nor an array', () => {
    expect([{}, { a: 1 }].map(isJsonObject)).toEqual([true, true]);
    expect([null, [], 'x', 1, true, undefined].map(isJsonObject)).toEqual([false, false, false, false, false, false]);
  });

  it('parses JSON text, or says why it is not JSON', () => {
    expect(parseJson('{"a":[1,null]}')).toEqual({ ok: true, value: { a: [1, null] } });
    expect(parseJson('null')).toEqual({ ok: true, value: null });
    const bad = parseJson('{"a":');
    expect(bad.ok).toBe(false);
    expect(bad.ok ? '' : bad.error).not.toBe('');
  });
});
