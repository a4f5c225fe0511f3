import { describe, expect, it } from 'vitest';
import { classify } from '../../../src/client/client';
import * as errors from '../../../src/contract/errors';

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
  ['400 with the service error object', 400, serviceError, errors.ApiError],
  ['404 with the service error object', 404, serviceError, errors.ApiError],
  ['409 with the service error object', 409, serviceError, errors.ApiError],
  ['401 with the error object', 401, serviceError, errors.AuthError],
  ['401 with an HTML page', 401, html(401), errors.AuthError],
  ['429 with anything', 429, '', errors.RateLimitError],
  ['408 HTML from a proxy', 408, html(408), errors.OutcomeUnknownError],
  ['499 HTML from a proxy', 499, html(499), errors.OutcomeUnknownError],
  ['408 empty', 408, '', errors.OutcomeUnknownError],
  ['499 empty', 499, '', errors.OutcomeUnknownError],
  ['400 empty', 400, '', errors.OutcomeUnknownError],
  ['403 HTML (a WAF)', 403, html(403), errors.OutcomeUnknownError],
  ['404 JSON that is not the error object', 404, '{"message":"Not Found"}', errors.OutcomeUnknownError],
  ['400 with an error field of the wrong shape', 400, '{"error":"bad"}', errors.OutcomeUnknownError],
  ['500 with the service error object', 500, serviceError, errors.OutcomeUnknownError],
  ['502 HTML', 502, html(502), errors.OutcomeUnknownError],
  ['503 empty', 503, '', errors.OutcomeUnknownError],
  ['504 JSON', 504, '{}', errors.OutcomeUnknownError],
  ['302 redirect', 302, '', errors.OutcomeUnknownError],
  ['200 truncated JSON', 200, '{"id":"rfnd_1","ent', errors.OutcomeUnknownError],
  ['200 HTML', 200, html(200), errors.OutcomeUnknownError],
  ['201 empty', 201, '', errors.OutcomeUnknownError],
  ['200 carrying an error object (a gateway, not a refusal)', 200, serviceError, errors.OutcomeUnknownError],
];

describe('answers to a POST', () => {
  it.each(writes)('%s (HTTP %i) -> %o', (_what, status, text, expected) => {
    const { error } = judge('POST', status, text);
    expect(error).toBeInstanceOf(expected);
    if (expected === errors.OutcomeUnknownError) {
      expect(error!.message).not.toMatch(/refused/);
      expect(error!.message).toMatch(/may or may not have been applied/);
    }
  });

  it('keeps the service fields of a refusal', () => {
    const { error } = judge('POST', 400, serviceError);
    expect((error as errors.ApiError).service).toMatchObject({
      code: 'BAD_REQUEST_ERROR',
      description: 'The amount is invalid',
    });
    expect((error as errors.ApiError).status).toBe(400);
  });

  it('says a proxy may have answered when a 4xx is not the service error object', () => {
    expect(judge('POST', 499, html(499)).error!.message).toMatch(/HTTP 499 with a body that is not JSON.*proxy/);
  });

  it('returns a 2xx JSON body as it is', () => {
    expect(judge('POST', 200, '{"id":"rfnd_1","entity":"refund"}').value).toEqual({ id: 'rfnd_1', entity: 'refund' });
  });
});

const reads: Case[] = [
  ['400 with the service error object', 400, serviceError, errors.ApiError],
  ['200 carrying the service error object', 200, serviceError, errors.ApiError],
  ['401', 401, '', errors.AuthError],
  ['429', 429, '', errors.RateLimitError],
  ['404 HTML', 404, html(404), errors.FailureError],
  ['408 empty', 408, '', errors.FailureError],
  ['502 HTML', 502, html(502), errors.NetworkError],
  ['500 with the error object', 500, serviceError, errors.NetworkError],
  ['200 truncated', 200, '{"id":', errors.FailureError],
];

describe('answers to a GET (nothing is at stake: never an unknown outcome)', () => {
  it.each(reads)('%s (HTTP %i) -> %o', (_what, status, text, expected) => {
    const { error } = judge('GET', status, text);
    expect(error).toBeInstanceOf(expected);
    expect(error).not.toBeInstanceOf(errors.OutcomeUnknownError);
  });
});

describe('a route the service does not serve', () => {
  const noRoute = JSON.stringify({
    error: {
      code: 'BAD_REQUEST_ERROR',
      description: 'The requested URL was not found on the server.',
      source: 'NA',
      step: 'NA',
      reason: 'NA',
      metadata: {},
    },
  });

  it('is the service having no such endpoint, named by method and path, for reads and writes alike', () => {
    for (const method of ['GET', 'POST', 'PATCH']) {
      const { error } = judge(method, 400, noRoute);
      expect(error).toBeInstanceOf(errors.NoEndpointError);
      expect(error).toBeInstanceOf(errors.ApiError);
      expect(error!.message).toBe(`the service has no endpoint ${method} /v1/x`);
    }
    const named = (() => {
      try {
        return classify('GET', 'GET http://127.0.0.1/v1/no/such?x=1', answer(400, noRoute), '/no/such');
      } catch (err) {
        return err as errors.NoEndpointError;
      }
    })() as errors.NoEndpointError;
    expect(named.endpoint).toBe('GET /no/such');
  });

  it('a missing record stays a refusal about the record', () => {
    const missing = JSON.stringify({
      error: { code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist' },
    });
    expect(judge('GET', 400, missing).error).not.toBeInstanceOf(errors.NoEndpointError);
  });
});
