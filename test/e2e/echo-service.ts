import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** Payment ids the echoing service knows, by where it puts the caller's Authorization header. */
export const ECHO = {
  /** A 400 whose error description quotes the header. */
  error: 'pay_EchoInError001',
  /** A payment whose notes hold the header, the decoded `id:secret`, and the secret alone. */
  notes: 'pay_EchoInNotes001',
  /** A 502 HTML page quoting the header. */
  html: 'pay_EchoInHtml0001',
  /** Readable, with an empty refund list; a refund of it is refused quoting the secret. */
  refund: 'pay_EchoRefund0001',
} as const;

const payment = (id: string, notes: Record<string, string> = {}) => ({
  id,
  entity: 'payment',
  amount: 50000,
  currency: 'INR',
  status: 'captured',
  amount_refunded: 0,
  captured: true,
  method: 'card',
  notes,
  created_at: 1_700_000_000,
});

/**
 * A service on loopback that repeats the credentials it was sent, everywhere a service's text can
 * reach payctl's output: the header as sent, its Basic base64 decoded to `id:secret`, and the secret.
 */
export function echoServiceForFile(): { baseUrl: string } {
  const service = { baseUrl: '' };
  const server = createServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    const pair = Buffer.from(auth.replace(/^Basic /, ''), 'base64').toString('utf8');
    const secret = pair.slice(pair.indexOf(':') + 1);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const error = (description: string) =>
      json(400, {
        error: { code: 'BAD_REQUEST_ERROR', description, source: 'business', reason: 'input_validation_failed' },
      });
    const path = (req.url ?? '').split('?')[0]!;
    if (path === `/v1/payments/${ECHO.error}`) return error(`The key ${auth} (${pair}) is not allowed`);
    if (path === `/v1/payments/${ECHO.notes}`) return json(200, payment(ECHO.notes, { header: auth, pair, secret }));
    if (path === `/v1/payments/${ECHO.html}`) {
      res.writeHead(502, { 'content-type': 'text/html' });
      return res.end(`<html><body><h1>502 Bad Gateway</h1><p>upstream refused ${auth} for ${pair}</p></body></html>`);
    }
    if (path === `/v1/payments/${ECHO.refund}`) return json(200, payment(ECHO.refund));
    if (path === `/v1/payments/${ECHO.refund}/refunds`) return json(200, { entity: 'collection', count: 0, items: [] });
    if (path === `/v1/payments/${ECHO.refund}/refund`) return error(`refunds are off for the key secret ${secret}`);
    json(404, { error: { code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist' } });
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    service.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  return service;
}
