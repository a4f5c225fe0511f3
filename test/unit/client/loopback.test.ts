import { describe, expect, it } from 'vitest';
import { isLoopback, refusedLocally } from '../../../src/client/loopback';

describe('a refused connection', () => {
  it.each([
    ['http://127.0.0.1:4000', true],
    ['http://127.1.2.3', true],
    ['http://localhost:8080/v1', true],
    ['http://[::1]:9', true],
    ['https://api.razorpay.com', false],
    ['http://10.0.0.5:80', false],
    ['http://127.0.0.1.example.com', false],
    ['not a url', false],
  ])('%s is this machine: %s', (origin, loopback) => {
    expect(isLoopback(origin)).toBe(loopback);
  });

  it('is final at once only when refused on this machine', () => {
    expect(refusedLocally('http://127.0.0.1:9', { code: 'ECONNREFUSED' })).toBe(true);
    expect(refusedLocally('https://api.razorpay.com', { code: 'ECONNREFUSED' })).toBe(false);
    expect(refusedLocally('http://127.0.0.1:9', { code: 'ECONNRESET' })).toBe(false);
    expect(refusedLocally('http://127.0.0.1:9', undefined)).toBe(false);
  });
});
