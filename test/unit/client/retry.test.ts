import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY,
  backoffMs,
  classifyTransportError,
  decide,
  parseRetryAfter,
  waitLine,
} from '../../../src/client/retry';
import type { AttemptOutcome } from '../../../src/client/retry';

const res = (status: number, retryAfterMs?: number): AttemptOutcome => ({ type: 'response', status, retryAfterMs });
const fail = (failure: 'not_sent' | 'unresolved' | 'timeout' | 'reset'): AttemptOutcome => ({ type: 'error', failure });

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
    ['GET', fail('unresolved'), false],
    ['POST', fail('unresolved'), false],
    ['POST', res(408), false],
    ['POST', res(499), false],
    ['GET', res(408), false],
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

  const now = Date.UTC(2026, 10, 6, 8, 49, 30);
  it.each([
    ['0', 0],
    ['4', 4000],
    [' 7 ', 7000],
    ['120', 120_000],
    ['Fri, 06 Nov 2026 08:49:37 GMT', 7000],
    ['Friday, 06-Nov-26 08:49:37 GMT', 7000],
    ['Fri Nov  6 08:49:37 2026', 7000],
    ['Fri, 06 Nov 2026 08:00:00 GMT', 0],
    ['-1', undefined],
    ['-30', undefined],
    ['1.5', undefined],
    ['1e3', undefined],
    ['0x10', undefined],
    ['+5', undefined],
    ['soon', undefined],
    ['', undefined],
    ['2026-11-06T08:49:37Z', undefined],
    ['99999999999999', undefined],
    ['Fri, 06 Nov 2026 08:49:37', undefined],
  ] as Array<[string, number | undefined]>)('Retry-After %j -> %s ms', (header, ms) => {
    expect(parseRetryAfter(header, now)).toBe(ms);
  });

  it('an invalid Retry-After is absent: the usual backoff applies', () => {
    const retryAfterMs = parseRetryAfter('-1', now);
    expect(decide('POST', res(429, retryAfterMs), 2, DEFAULT_RETRY, () => 1)).toEqual({ retry: true, delayMs: 1000 });
  });
});

describe('transport errors', () => {
  it.each([
    [{ code: 'ECONNREFUSED' }, 'not_sent'],
    [{ code: 'UND_ERR_CONNECT_TIMEOUT' }, 'not_sent'],
    [{ code: 'ENOTFOUND' }, 'unresolved'],
    [{ code: 'EAI_AGAIN' }, 'unresolved'],
    [{ code: 'PAYCTL_DEADLINE' }, 'timeout'],
    [{ code: 'UND_ERR_BODY_TIMEOUT' }, 'timeout'],
    [{ code: 'UND_ERR_HEADERS_TIMEOUT' }, 'timeout'],
    [{ name: 'TimeoutError' }, 'timeout'],
    [{ code: 'ECONNRESET' }, 'reset'],
    [{ code: 'UND_ERR_SOCKET' }, 'reset'],
  ])('%j is %s', (err, kind) => {
    expect(classifyTransportError(err)).toBe(kind);
  });
});

describe('the line shown for a wait', () => {
  it('names the reason, the seconds and the attempt', () => {
    expect(waitLine('rate limited', 3200, 0, DEFAULT_RETRY)).toBe('rate limited; retrying in 4s (attempt 2 of 7)');
    expect(waitLine('the service answered HTTP 503', 60_000, 5, DEFAULT_RETRY)).toBe(
      'the service answered HTTP 503; retrying in 60s (attempt 7 of 7)',
    );
  });
});
