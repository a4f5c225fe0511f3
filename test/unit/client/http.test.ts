import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/client/client';
import { NetworkError, OutcomeUnknownError, RateLimitError } from '../../../src/contract/errors';
import { HttpClient } from '../../../src/client/http';

let server: Server | undefined;
let client: HttpClient | undefined;
afterEach(async () => {
  await client?.close();
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

const payment = {
  id: 'pay_AAAAAAAAAAAAAA',
  entity: 'payment',
  amount: 100,
  currency: 'INR',
  status: 'captured',
  created_at: 1,
};

async function serve(script: (req: IncomingMessage, res: ServerResponse, n: number) => void, timeoutMs = 5_000) {
  let n = 0;
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => script(req, res, n++));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const waits: number[] = [];
  const lines: string[] = [];
  let clock = 1_000_000;
  client = new HttpClient({
    now: () => clock,
    baseUrl: `http://127.0.0.1:${port}/v1`,
    keyId: 'rzp_test_x',
    keySecret: 'unit-secret',
    timeoutMs,
    sleep: async (ms) => {
      waits.push(ms);
      clock += ms;
    },
    onWait: (line) => lines.push(line),
  });
  return { api: new ApiClient(client), waits, lines, hits: () => n };
}

/** Sends the body one byte every `everyMs`: each chunk arrives well within the timeout, the whole never does. */
const drip = (everyMs: number) => (_q: IncomingMessage, res: ServerResponse) => {
  const body = Buffer.from(JSON.stringify(payment));
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
  let i = 0;
  const timer = setInterval(() => {
    if (res.destroyed || i >= body.length) return clearInterval(timer);
    res.write(body.subarray(i, ++i));
  }, everyMs);
  res.on('close', () => clearInterval(timer));
};

describe('one deadline per attempt, connect to last byte', () => {
  it('ends a dripped answer to a write as an unknown outcome, sent once', async () => {
    const { api, hits } = await serve(drip(50), 300);
    const err = await api
      .call('refundPayment', { params: { id: 'pay_AAAAAAAAAAAAAA' }, body: { amount: 100 } })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(err.message).toMatch(/timed out/);
    expect(hits()).toBe(1);
  });

  it('ends a dripped answer to a read, retried, then a network failure', async () => {
    const { api, hits } = await serve(drip(50), 300);
    await expect(api.call('getPayment', { params: { id: 'pay_AAAAAAAAAAAAAA' } })).rejects.toBeInstanceOf(NetworkError);
    expect(hits()).toBe(7);
  }, 20_000);
});

describe('reading an answer', () => {
  it('joins a body that arrives in many pieces into the record', async () => {
    const { api } = await serve((_q, res) => {
      const body = Buffer.from(JSON.stringify({ ...payment, notes: { long: 'x'.repeat(200_000) } }));
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < body.length; i += 1000) res.write(body.subarray(i, i + 1000));
      res.end();
    });
    const got = await api.call<{ id: string; notes: { long: string } }>('getPayment', {
      params: { id: 'pay_AAAAAAAAAAAAAA' },
    });
    expect(got.id).toBe('pay_AAAAAAAAAAAAAA');
    expect(got.notes.long).toHaveLength(200_000);
  });

  it('ends an answer to a write cut off mid-body as an unknown outcome, sent once', async () => {
    const { api, hits } = await serve((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write(JSON.stringify(payment).slice(0, 40));
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const err = await api
      .call('refundPayment', { params: { id: 'pay_AAAAAAAAAAAAAA' }, body: { amount: 100 } })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    // The reset itself, not a half body taken for the answer.
    expect(err.message).toMatch(/^no answer to POST .* \(aborted\): the request may or may not have been applied/);
    expect(hits()).toBe(1);
  });
});

describe('waits on 429', () => {
  const limited =
    (retryAfter: string | undefined, times: number) => (_q: IncomingMessage, res: ServerResponse, n: number) => {
      if (n < times) {
        res.writeHead(429, {
          'content-type': 'application/json',
          ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }),
        });
        res.end('{}');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payment));
      }
    };

  it('honours Retry-After and says so on one line per wait over a second', async () => {
    const { api, waits, lines } = await serve(limited('4', 1));
    await expect(api.call('getPayment', { params: { id: 'pay_AAAAAAAAAAAAAA' } })).resolves.toMatchObject({
      id: payment.id,
    });
    expect(waits).toEqual([4000]);
    expect(lines).toEqual(['rate limited; retrying in 4s (attempt 2 of 7)']);
  });

  it('caps a huge Retry-After and still announces every wait', async () => {
    const { api, waits, lines } = await serve(limited('86400', 99));
    await expect(api.call('getPayment', { params: { id: 'pay_AAAAAAAAAAAAAA' } })).rejects.toBeInstanceOf(
      RateLimitError,
    );
    expect(waits).toEqual(Array(6).fill(60_000));
    expect(lines).toHaveLength(6);
    expect(lines[5]).toBe('rate limited; retrying in 60s (attempt 7 of 7)');
  });

  it.each(['-1', 'garbage', '1e9'])(
    'reads Retry-After %j as absent (backoff, not zero, not a date in 2001)',
    async (header) => {
      const { api, waits } = await serve(limited(header, 3));
      await api.call('getPayment', { params: { id: 'pay_AAAAAAAAAAAAAA' } });
      expect(waits).toHaveLength(3);
      for (const [i, ms] of waits.entries()) expect(ms).toBeLessThanOrEqual(250 * 2 ** i);
    },
  );

  it('says nothing for short waits', async () => {
    const { api, lines } = await serve(limited('1', 2));
    await api.call('getPayment', { params: { id: 'pay_AAAAAAAAAAAAAA' } });
    expect(lines).toEqual([]);
  });
});

describe('a paced request (many reads)', () => {
  it("waits through its pacer, and its 429 does not stop the client's other requests", async () => {
    const { api, waits } = await serve((req, res) => {
      const limited = req.url?.includes('pay_LIMITEDLIMITED');
      res.writeHead(limited ? 429 : 200, { 'content-type': 'application/json', 'retry-after': '5' });
      res.end(limited ? '{}' : JSON.stringify(payment));
    });
    const told: string[] = [];
    let beside: Promise<unknown> | undefined;
    let besideWaited: number | undefined;
    const pacer = {
      waiting: () => {
        told.push('waiting');
        if (beside) return;
        // While the limited id waits, another id goes at once: the client's gate stayed open.
        const before = waits.length;
        beside = api.call('getPayment', { params: { id: payment.id } });
        besideWaited = waits.length - before;
      },
      resumed: async () => void told.push('resumed'),
    };
    const limited = api.execute(api.prepare('getPayment', { params: { id: 'pay_LIMITEDLIMITED' } }), pacer);
    await expect(limited).rejects.toBeInstanceOf(RateLimitError);
    expect(told).toEqual(Array(6).fill(['waiting', 'resumed']).flat());
    await expect(beside).resolves.toMatchObject({ id: payment.id });
    expect(besideWaited).toBe(0);
  });
});

describe('a host that does not resolve', () => {
  it('fails at once with a hint, without retrying', async () => {
    const waits: number[] = [];
    client = new HttpClient({
      baseUrl: 'https://api.payctl-typo.invalid/v1',
      keyId: 'k',
      keySecret: 's',
      timeoutMs: 10_000,
      sleep: async (ms) => void waits.push(ms),
    });
    const err = await new ApiClient(client)
      .call('refundPayment', { params: { id: 'pay_AAAAAAAAAAAAAA' }, body: { amount: 1 } })
      .catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toMatch(/cannot resolve the host name api\.payctl-typo\.invalid.*nothing was sent/);
    expect(err.hints.join(' ')).toMatch(/--base-url/);
    expect(waits).toEqual([]);
  });
});

describe('a refused connection', () => {
  it('on this machine fails at once (nothing listens there), saying nothing was applied and asking about the sandbox', async () => {
    const { api, waits } = await serve(() => undefined);
    await new Promise<void>((r) => server!.close(() => r()));
    server = undefined;
    const err = await api
      .call('refundPayment', { params: { id: 'pay_AAAAAAAAAAAAAA' }, body: { amount: 1 } })
      .catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toMatch(/after 1 attempt: .*nothing was applied/);
    expect(err.hints.join(' ')).toMatch(/is `payctl sandbox start` running\?/);
    expect(waits).toHaveLength(0);
  });
});
