import { describe, expect, it } from 'vitest';
import { classify } from '../../../src/client/client';
import {
  ApiError,
  AuthError,
  FailureError,
  NetworkError,
  OutcomeUnknownError,
  RateLimitError,
} from '../../../src/contract/errors';

const serviceError = JSON.stringify({
  error: { code: 'BAD_REQUEST_ERROR', description: 'The amount is invalid', reason: 'NA' },
});
const html = (status: number) => `<html><head><title>${status}</title></head><body><h1>${status}</h1></body></html>`;
const answer = (status: number, text: string) => ({ status, headers: {}, text, attempts: 1 });
const judge = (method: string, status: number, text: string) => {
  try {
    return { value: classify(method, `${method} http://127.0.0.1/v1/x`, answer(status, text)) };
  } catch (err) {
    return { error: err as Error };
  }
};

type Case = [string, number, string, new (...a: never[]) => Error];

/** Every answer to a write, and what it proves. Only the service's own error object (and 401/429) is a refusal. */
const writes: Case[] = [
  ['400 with the service error object', 400, serviceError, ApiError],
  ['404 with the service error object', 404, serviceError, ApiError],
  ['409 with the service error object', 409, serviceError, ApiError],
  ['401 with the error object', 401, serviceError, AuthError],
  ['401 with an HTML page', 401, html(401), AuthError],
  ['429 with anything', 429, '', RateLimitError],
  ['408 HTML from a proxy', 408, html(408), OutcomeUnknownError],
  ['499 HTML from a proxy', 499, html(499), OutcomeUnknownError],
  ['408 empty', 408, '', OutcomeUnknownError],
  ['499 empty', 499, '', OutcomeUnknownError],
  ['400 empty', 400, '', OutcomeUnknownError],
  ['403 HTML (a WAF)', 403, html(403), OutcomeUnknownError],
  ['404 JSON that is not the error object', 404, '{"message":"Not Found"}', OutcomeUnknownError],
  ['400 with an error field of the wrong shape', 400, '{"error":"bad"}', OutcomeUnknownError],
  ['500 with the service error object', 500, serviceError, OutcomeUnknownError],
  ['502 HTML', 502, html(502), OutcomeUnknownError],
  ['503 empty', 503, '', OutcomeUnknownError],
  ['504 JSON', 504, '{}', OutcomeUnknownError],
  ['302 redirect', 302, '', OutcomeUnknownError],
  ['200 truncated JSON', 200, '{"id":"rfnd_1","ent', OutcomeUnknownError],
  ['200 HTML', 200, html(200), OutcomeUnknownError],
  ['201 empty', 201, '', OutcomeUnknownError],
  ['200 carrying an error object (a gateway, not a refusal)', 200, serviceError, OutcomeUnknownError],
];

describe('answers to a POST', () => {
  it.each(writes)('%s (HTTP %i) -> %o', (_what, status, text, expected) => {
    const { error } = judge('POST', status, text);
    expect(error).toBeInstanceOf(expected);
    if (expected === OutcomeUnknownError) {
      expect(error!.message).not.toMatch(/refused/);
      expect(error!.message).toMatch(/may or may not have been applied/);
    }
  });

  it('keeps the service fields of a refusal', () => {
    const { error } = judge('POST', 400, serviceError);
    expect((error as ApiError).service).toMatchObject({
      code: 'BAD_REQUEST_ERROR',
      description: 'The amount is invalid',
    });
    expect((error as ApiError).status).toBe(400);
  });

  it('says a proxy may have answered when a 4xx is not the service error object', () => {
    expect(judge('POST', 499, html(499)).error!.message).toMatch(/HTTP 499 with a body that is not JSON.*proxy/);
  });

  it('returns a 2xx JSON body as it is', () => {
    expect(judge('POST', 200, '{"id":"rfnd_1","entity":"refund"}').value).toEqual({ id: 'rfnd_1', entity: 'refund' });
  });
});

const reads: Case[] = [
  ['400 with the service error object', 400, serviceError, ApiError],
  ['200 carrying the service error object', 200, serviceError, ApiError],
  ['401', 401, '', AuthError],
  ['429', 429, '', RateLimitError],
  ['404 HTML', 404, html(404), FailureError],
  ['408 empty', 408, '', FailureError],
  ['502 HTML', 502, html(502), NetworkError],
  ['500 with the error object', 500, serviceError, NetworkError],
  ['200 truncated', 200, '{"id":', FailureError],
];

describe('answers to a GET (nothing is at stake: never an unknown outcome)', () => {
  it.each(reads)('%s (HTTP %i) -> %o', (_what, status, text, expected) => {
    const { error } = judge('GET', status, text);
    expect(error).toBeInstanceOf(expected);
    expect(error).not.toBeInstanceOf(OutcomeUnknownError);
  });
});
