import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the handler got it: path with query string, headers, raw bytes. */
export interface Received {
  url: string;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
  eventId: string;
  signature: string;
  event: string;
}

/**
 * A webhook handler on a fixed loopback port that records every request byte for byte, answers 200
 * (or 500 to the next `failNext` requests), and can go down and come back on the same port.
 */
export async function recordingHandler() {
  const received: Received[] = [];
  let failNext = 0;
  let server: Server | undefined;
  let port = 0;
  const up = () =>
    new Promise<void>((resolve) => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const event = (JSON.parse(raw) as { event: string }).event;
          const eventId = String(req.headers['x-razorpay-event-id'] ?? '');
          const signature = String(req.headers['x-razorpay-signature'] ?? '');
          received.push({ url: req.url ?? '', headers: req.headers, raw, eventId, signature, event });
          if (failNext > 0) {
            failNext--;
            res.writeHead(500).end('try later');
          } else res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
        });
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  const down = () =>
    new Promise<void>((resolve) => {
      server?.close(() => resolve());
      server?.closeAllConnections();
    });
  await up();
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    named: (event: string) => received.filter((r) => r.event === event),
    failNext: (n: number) => void (failNext = n),
    up,
    down,
  };
}
