import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { callApi } from '../../../../src/commands/api/handlers';
import type { CallApiOptions } from '../../../../src/commands/api/handlers';
import { OutcomeUnknownError } from '../../../../src/contract/errors';
import { fakeContext, expectUsageError } from '../fake-context';

const call = (o: Partial<CallApiOptions> = {}): CallApiOptions => ({
  methodOrPath: '/payments/pay_29QQoUBi66xm2f',
  fields: [],
  rawFields: [],
  all: false,
  ...o,
});
const payment = (status: string) => ({ id: 'pay_29QQoUBi66xm2f', entity: 'payment', amount: 50000, status });
const rows = async (result: unknown) => {
  const r = result as { type: string; items: AsyncIterable<unknown> | Iterable<unknown> };
  if (r.type !== 'many') throw new Error(`expected rows, got ${r.type}`);
  const out: unknown[] = [];
  for await (const row of r.items) out.push(row);
  return out;
};

describe('api: what is sent', () => {
  it.each([
    ['a path alone: GET', call(), 'GET', '/payments/pay_29QQoUBi66xm2f', {}, undefined],
    [
      'the /v1 prefix typed: taken off',
      call({ methodOrPath: '/v1/orders?count=2' }),
      'GET',
      '/orders',
      { count: '2' },
      undefined,
    ],
    [
      'GET with fields: the query',
      call({ methodOrPath: 'get', path: '/orders', fields: ['count=5'] }),
      'GET',
      '/orders',
      { count: '5' },
      undefined,
    ],
    [
      'a path with fields: POST with a JSON body',
      call({
        methodOrPath: '/payments/pay_1/refund',
        fields: ['amount=100', 'notes[reason]=damaged'],
        rawFields: ['speed=1'],
      }),
      'POST',
      '/payments/pay_1/refund',
      {},
      { amount: 100, notes: { reason: 'damaged' }, speed: '1' },
    ],
  ])('%s', async (_name, opts, method, path, query, body) => {
    const f = fakeContext({
      routes: { 'GET /:a': { body: {} }, 'GET /:a/:b': { body: {} }, 'POST /:a/:b/:c': { body: {} } },
    });
    await callApi(opts, f.ctx);
    expect(f.sent).toHaveLength(1);
    expect(f.sent[0]).toMatchObject({ method, path, query });
    expect(f.sent[0]!.body).toEqual(body);
  });

  it('a POST asks first, naming the URL, the body and the amount in rupees', async () => {
    const f = fakeContext({ routes: { 'POST /payments/:id/refund': { body: { id: 'rfnd_1', entity: 'refund' } } } });
    const opts = call({
      methodOrPath: 'POST',
      path: '/payments/pay_1/refund',
      fields: ['amount=20000', 'currency=INR'],
    });
    const result = await callApi(opts, f.ctx);
    expect(f.questions).toEqual([
      'Send POST http://127.0.0.1:9/v1/payments/pay_1/refund {"amount":20000,"currency":"INR"} — amount ₹200.00 (20000 paise)?',
    ]);
    expect(result).toMatchObject({ type: 'one', kind: 'refund', data: { id: 'rfnd_1' } });
  });

  it('"No" to the question: nothing sent', async () => {
    const f = fakeContext({ confirm: false });
    await expect(callApi(call({ methodOrPath: 'POST', path: '/orders', fields: ['amount=1'] }), f.ctx)).rejects.toThrow(
      /declined at a confirmation: nothing was sent/,
    );
    expect(f.sent).toHaveLength(0);
  });

  it('--input -: the body is stdin, the fields go to the query', async () => {
    const f = fakeContext({ stdin: '{"amount":100,"currency":"INR"}', routes: { 'POST /orders': { body: {} } } });
    await callApi(call({ methodOrPath: '/orders', input: '-', fields: ['x=1'] }), f.ctx);
    expect(f.sent[0]).toMatchObject({
      method: 'POST',
      path: '/orders',
      query: { x: '1' },
      body: { amount: 100, currency: 'INR' },
    });
  });

  it('--input FILE that is not JSON: a usage error, nothing sent', async () => {
    const f = fakeContext();
    const file = join(f.home, 'body.txt');
    writeFileSync(file, 'amount=100');
    await expect(callApi(call({ methodOrPath: '/orders', input: file }), f.ctx)).rejects.toThrow(/is not JSON/);
    expect(f.sent).toHaveLength(0);
  });

  it('--dry-run: the request, nothing sent, no question', async () => {
    const f = fakeContext({ settings: { dryRun: true } });
    const result = await callApi(call({ methodOrPath: 'POST', path: '/orders', fields: ['amount=1'] }), f.ctx);
    expect(result).toMatchObject({
      type: 'dry-run',
      requests: [{ method: 'POST', url: 'http://127.0.0.1:9/v1/orders', body: { amount: 1 } }],
    });
    expect(f.sent).toHaveLength(0);
    expect(f.questions).toHaveLength(0);
  });
});

describe('api: usage errors, nothing sent', () => {
  it.each([
    [
      'a method other than GET, POST or PATCH',
      call({ methodOrPath: 'DELETE', path: '/orders' }),
      /sends GET, POST or PATCH/,
    ],
    ['--input with GET', call({ methodOrPath: 'GET', path: '/orders', input: '-' }), /--input is a request body/],
    ['--all with POST', call({ methodOrPath: 'POST', path: '/orders', all: true }), /--all walks the pages/],
    ['--limit without --all', call({ limit: '5' }), /--limit goes with --all/],
    ['--all with count', call({ methodOrPath: '/orders?count=5', all: true }), /leave count and skip out/],
    [
      '--all with a from not in Unix seconds',
      call({ methodOrPath: '/orders?from=2024-04-01', all: true }),
      /from must/,
    ],
    ['a full URL', call({ methodOrPath: 'https://evil.example/v1/orders' }), /not a full URL/],
    ['a path that climbs out', call({ methodOrPath: '/orders/../admin' }), /\.\. segments/],
    ['a field without =', call({ fields: ['amount'] }), /-F takes key=value/],
  ])('%s', async (_name, opts, message) => {
    await expectUsageError(callApi, opts, message);
  });
});

describe('api: what comes back', () => {
  const list = { entity: 'collection', count: 2, items: [payment('captured'), payment('authorized')] };

  it('JSON: the answer exactly; other formats: the items as rows', async () => {
    const json = fakeContext({ routes: { 'GET /payments': { body: list } } });
    expect(await callApi(call({ methodOrPath: '/payments' }), json.ctx)).toEqual({
      type: 'one',
      kind: 'payment',
      data: list,
      out: undefined,
    });
    const csv = fakeContext({ routes: { 'GET /payments': { body: list } }, settings: { format: 'csv' } });
    const result = await callApi(call({ methodOrPath: '/payments' }), csv.ctx);
    expect(result).toMatchObject({ type: 'many', kind: 'payment' });
    expect(await rows(result)).toEqual(list.items);
  });

  it('--all walks the pages, 100 at a time, asking only for what --limit still needs', async () => {
    const items = Array.from({ length: 150 }, (_, i) => ({ ...payment('captured'), id: `pay_${i}` }));
    const f = fakeContext({
      routes: {
        'GET /payments': (req) => {
          const skip = Number(req.query?.skip ?? 0);
          const page = items.slice(skip, skip + Number(req.query?.count));
          return { body: { entity: 'collection', count: page.length, items: page } };
        },
      },
    });
    const result = await callApi(call({ methodOrPath: '/payments', all: true, limit: '120' }), f.ctx);
    expect((await rows(result)).length).toBe(120);
    expect(f.sent.map((r) => r.query)).toMatchObject([
      { count: 100, skip: 0 },
      { count: 21, skip: 99 },
    ]);
  });

  it.each([
    ['captured: the payment read back, said on stderr', 'captured', undefined],
    ['still authorized: exit 6 naming the command to check', 'authorized', /payctl payments get pay_1/],
  ])('a capture whose answer was lost, %s', async (_name, status, unknown) => {
    const f = fakeContext({
      routes: {
        'POST /payments/:id/capture': { status: 503, body: { error: { code: 'SERVER_ERROR', description: 'down' } } },
        'GET /payments/:id': { body: { ...payment(status), id: 'pay_1' } },
      },
    });
    const opts = call({
      methodOrPath: 'POST',
      path: '/payments/pay_1/capture',
      fields: ['amount=50000', 'currency=INR'],
    });
    if (unknown) {
      const err = await callApi(opts, f.ctx).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OutcomeUnknownError);
      expect(String((err as OutcomeUnknownError).hints)).toMatch(unknown);
    } else {
      expect(await callApi(opts, f.ctx)).toMatchObject({ type: 'one', data: { id: 'pay_1', status: 'captured' } });
      expect(f.stderr()).toMatch(/read back from the service: pay_1 is captured/);
    }
    expect(f.sent.filter((r) => r.method === 'POST')).toHaveLength(1);
  });
});
