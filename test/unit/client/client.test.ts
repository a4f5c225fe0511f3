import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/client/client';
import {
  ApiError,
  AuthError,
  FailureError,
  NetworkError,
  OutcomeUnknownError,
  RateLimitError,
} from '../../../src/contract/errors';
import { HttpClient } from '../../../src/client/http';

type Script = (req: IncomingMessage, res: ServerResponse, n: number) => void;

const payment = {
  id: 'pay_AAAAAAAAAAAAAA',
  entity: 'payment',
  amount: 100,
  currency: 'INR',
  status: 'authorized',
  created_at: 1,
  extra_field: { kept: true },
};
const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

let server: Server | undefined;
let client: HttpClient | undefined;
afterEach(async () => {
  await client?.close();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

const SECRET = 'unit-secret-9f8e7d';

/** A scripted server and a client of it; the deadline is long but where a test waits it out. */
async function serve(script: Script, timeoutMs = 30_000) {
  let n = 0;
  const hits: string[] = [];
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => script(req, res, n++));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const debug: string[] = [];
  client = new HttpClient({
    baseUrl: `http://127.0.0.1:${port}/v1`,
    keyId: 'rzp_test_x',
    keySecret: SECRET,
    timeoutMs,
    sleep: async () => undefined,
    debug: (l) => debug.push(l),
  });
  return { api: new ApiClient(client), hits, debug };
}

describe('the request pipeline', () => {
  it('retries a GET through 5xx and keeps unknown fields', async () => {
    const { api, hits } = await serve((_q, res, n) => (n < 2 ? json(res, 502, {}) : json(res, 200, payment)));
    await expect(api.call('getPayment', { params: { id: 'pay_AAAAAAAAAAAAAA' } })).resolves.toEqual(payment);
    expect(hits).toHaveLength(3);
  });

  it('never resends a POST after a 500: the outcome is unknown', async () => {
    const { api, hits } = await serve((_q, res) =>
      json(res, 500, { error: { code: 'SERVER_ERROR', description: 'boom' } }),
    );
    await expect(
      api.call('refundPayment', { params: { id: 'pay_AAAAAAAAAAAAAA' }, body: { amount: 100 } }),
    ).rejects.toBeInstanceOf(OutcomeUnknownError);
    expect(hits).toHaveLength(1);
  });

  it('never resends a POST after the connection drops mid-request', async () => {
    const { api, hits } = await serve((req) => req.socket.destroy());
    await expect(
      api.call('capturePayment', { params: { id: 'pay_AAAAAAAAAAAAAA' }, body: { amount: 100, currency: 'INR' } }),
    ).rejects.toBeInstanceOf(OutcomeUnknownError);
    expect(hits).toHaveLength(1);
  });

  it('resends a POST after 429 (nothing was applied)', async () => {
    const { api, hits } = await serve((_q, res, n) =>
      n === 0
        ? json(res, 429, { error: { code: 'BAD_REQUEST_ERROR', description: 'Too many requests' } })
        : json(res, 200, payment),
    );
    await expect(
      api.call('capturePayment', { params: { id: 'pay_AAAAAAAAAAAAAA' }, body: { amount: 100, currency: 'INR' } }),
    ).resolves.toMatchObject({ id: payment.id });
    expect(hits).toHaveLength(2);
  });

  it('gives up on 429 after the retries with a rate-limit error', async () => {
    const { api, hits } = await serve((_q, res) => json(res, 429, {}));
    await expect(api.call('listPayments', { query: {} })).rejects.toBeInstanceOf(RateLimitError);
    expect(hits).toHaveLength(7);
  });

  it('times out a GET that never answers, retrying, then reports a network failure', async () => {
    const { api, hits } = await serve(() => undefined, 250);
    await expect(api.call('getPayment', { params: { id: 'pay_AAAAAAAAAAAAAA' } })).rejects.toBeInstanceOf(NetworkError);
    expect(hits.length).toBeGreaterThan(1);
  }, 10_000);

  it('maps 401 to an auth error and 400 to the service error', async () => {
    const { api } = await serve((req, res) =>
      req.url?.includes('capture')
        ? json(res, 400, {
            error: { code: 'BAD_REQUEST_ERROR', description: 'This payment has already been captured', reason: 'NA' },
          })
        : json(res, 401, { error: { code: 'BAD_REQUEST_ERROR', description: 'The api key provided is invalid' } }),
    );
    await expect(api.call('getPayment', { params: { id: 'pay_AAAAAAAAAAAAAA' } })).rejects.toBeInstanceOf(AuthError);
    const err = await api
      .call('capturePayment', { params: { id: 'pay_AAAAAAAAAAAAAA' }, body: { amount: 1, currency: 'INR' } })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe('This payment has already been captured');
  });

  it('calls an HTML page or a wrong resource a failure, not a payment', async () => {
    const { api } = await serve((req, res) => {
      if (req.url?.includes('html')) {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><body>Welcome</body></html>');
      } else json(res, 200, { id: 'rfnd_1', entity: 'refund' });
    });
    await expect(api.call('getPayment', { params: { id: 'pay_html' } })).rejects.toBeInstanceOf(FailureError);
    await expect(api.call('getPayment', { params: { id: 'pay_other' } })).rejects.toThrow(
      /something else than expected/,
    );
  });

  it('unwraps a one-item collection answering a create', async () => {
    const transfer = { id: 'trf_1', entity: 'transfer', amount: 100, currency: 'INR', created_at: 1 };
    const { api } = await serve((_q, res) => json(res, 200, { entity: 'collection', count: 1, items: [transfer] }));
    await expect(
      api.call('transferPayment', {
        params: { id: 'pay_1' },
        body: { transfers: [{ customer: 'cust_1', amount: 100, currency: 'INR' }] },
      }),
    ).resolves.toEqual(transfer);
  });

  it('reports a closed port as a network failure and never shows the secret in the trace', async () => {
    const { api, debug } = await serve((_q, res) => json(res, 200, payment));
    const port = (server!.address() as { port: number }).port;
    await new Promise<void>((r) => server!.close(() => r()));
    server = undefined;
    void port;
    await expect(
      api.call('capturePayment', { params: { id: 'pay_AAAAAAAAAAAAAA' }, body: { amount: 100, currency: 'INR' } }),
    ).rejects.toBeInstanceOf(NetworkError);
    expect(debug.join('\n')).not.toContain(SECRET);
    expect(debug.length).toBeGreaterThan(0);
  });

  it('refuses invalid requests before sending', async () => {
    const { api, hits } = await serve((_q, res) => json(res, 200, {}));
    expect(() => api.prepare('createOrder', { body: { amount: 12.5, currency: 'INR' } })).toThrow(
      /amount must be an integer/,
    );
    expect(() => api.prepare('listOrders', { query: { count: 101 } })).toThrow(/100/);
    expect(hits).toHaveLength(0);
  });
});
