import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, backoffMs, classifyTransportError, decide, parseRetryAfter } from '../../../src/api/retry';
import type { AttemptOutcome } from '../../../src/api/retry';

const res = (status: number, retryAfterMs?: number): AttemptOutcome => ({ type: 'response', status, retryAfterMs });
const fail = (failure: 'not_sent' | 'timeout' | 'reset'): AttemptOutcome => ({ type: 'error', failure });

describe('which attempts are retried', () => {
  it.each([
    ['GET', res(429), true],
    ['POST', res(429), true],
    ['GET', res(500), true],
    ['GET', res(503), true],
    ['POST', res(500), false],
    ['POST', res(502), false],
    ['GET', res(400), false],
    ['POST', res(401), false],
    ['GET', fail('not_sent'), true],
    ['POST', fail('not_sent'), true],
    ['GET', fail('timeout'), true],
    ['POST', fail('timeout'), false],
    ['GET', fail('reset'), true],
    ['POST', fail('reset'), false],
  ] as Array<[string, AttemptOutcome, boolean]>)('%s %j -> %s', (method, outcome, retry) => {
    expect(decide(method, outcome, 0, DEFAULT_RETRY, () => 0.5).retry).toBe(retry);
  });

  it('stops after maxRetries', () => {
    expect(decide('GET', res(429), DEFAULT_RETRY.maxRetries - 1).retry).toBe(true);
    expect(decide('GET', res(429), DEFAULT_RETRY.maxRetries).retry).toBe(false);
  });

  it('honours Retry-After, capped', () => {
    expect(decide('POST', res(429, 2000), 0)).toEqual({ retry: true, delayMs: 2000 });
    expect(decide('POST', res(429, 10 * 60_000), 0)).toEqual({ retry: true, delayMs: DEFAULT_RETRY.maxRetryAfterMs });
  });
});

describe('backoff', () => {
  it('grows exponentially with full jitter and a cap', () => {
    expect(backoffMs(0, DEFAULT_RETRY, () => 1)).toBe(250);
    expect(backoffMs(3, DEFAULT_RETRY, () => 1)).toBe(2000);
    expect(backoffMs(10, DEFAULT_RETRY, () => 1)).toBe(DEFAULT_RETRY.capMs);
    expect(backoffMs(3, DEFAULT_RETRY, () => 0)).toBe(0);
  });

  it('reads Retry-After as seconds or a date', () => {
    expect(parseRetryAfter('3', 0)).toBe(3000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
    expect(parseRetryAfter(undefined, 0)).toBeUndefined();
  });
});

describe('transport errors', () => {
  it.each([
    [{ code: 'ECONNREFUSED' }, 'not_sent'],
    [{ code: 'UND_ERR_CONNECT_TIMEOUT' }, 'not_sent'],
    [{ code: 'ENOTFOUND' }, 'not_sent'],
    [{ code: 'UND_ERR_HEADERS_TIMEOUT' }, 'timeout'],
    [{ name: 'TimeoutError' }, 'timeout'],
    [{ code: 'ECONNRESET' }, 'reset'],
    [{ code: 'UND_ERR_SOCKET' }, 'reset'],
  ])('%j is %s', (err, kind) => {
    expect(classifyTransportError(err)).toBe(kind);
  });
});
