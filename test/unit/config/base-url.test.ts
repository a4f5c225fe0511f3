import { describe, expect, it } from 'vitest';
import { checkBaseUrl } from '../../../src/config/base-url';

describe('base URLs', () => {
  it.each([
    ['https://api.example.com/v1', true],
    ['https://api.example.com/v1/', true],
    ['http://127.0.0.1:4010/v1', true],
    ['http://127.5.6.7:4010/v1', true],
    ['http://localhost:4010/v1', true],
    ['http://[::1]:4010/v1', true],
    ['http://api.example.com/v1', false],
    ['http://10.0.0.5/v1', false],
    ['http://localhost.evil.com/v1', false],
    ['https://user:pass@api.example.com/v1', false],
    ['ftp://api.example.com/v1', false],
    ['not a url', false],
  ])('%s -> %s', (url, ok) => {
    expect(checkBaseUrl(url).ok).toBe(ok);
  });

  it('normalises the trailing slash', () => {
    expect(checkBaseUrl('https://api.example.com/v1/')).toEqual({ ok: true, value: 'https://api.example.com/v1' });
  });
});
