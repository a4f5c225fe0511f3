import { createServer } from 'node:http';
import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/**
 * A hostile stand-in for the payments service: a node:http server on a loopback port whose answers each
 * test scripts (pages, rows, figures, 429s, answers for another id), so that what payctl promises about
 * what it reads is held against a service nobody here wrote, not only against its own sandbox.
 */

/** One request as the stand-in saw it: the path below /v1, its query, and how many times that path was asked. */
export interface Asked {
  path: string;
  query: URLSearchParams;
  /** Requests to this path so far, this one included (1 for the first). */
  n: number;
}

export interface Answer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A route's script: an answer, or undefined to pass the request on to the next route. */
export type Route = (asked: Asked, params: Record<string, string>) => Answer | undefined;

export interface StandIn {
  /** `PAYCTL_*` environment credentials pointing at the stand-in (an ad-hoc profile). */
  env: Record<string, string>;
  baseUrl: string;
  keyId: string;
  keySecret: string;
  /** Adds a route for this test: `GET /payments/:id`, matched in the order added. */
  on(pattern: string, route: Route): void;
  /** Every request of this test, in order. */
  log: Asked[];
}

const compile = (pattern: string) => {
  const [method, path] = pattern.split(' ') as [string, string];
  const names: string[] = [];
  const re = new RegExp(
    `^${path.replace(/:(\w+)/g, (_m, name: string) => (names.push(name), '([^/]+)'))}$`.replace(/\//g, '\\/'),
  );
  return { method, re, names };
};

/** Listens on an ephemeral loopback port: the base URL (with /v1) payctl is pointed at. */
async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

/**
 * A service written by hand for the test file, `handler` answering every request, on loopback from its
 * first test to its last: the environment that points payctl at it with `env` (a key, a retry limit).
 * Its fields are filled in when it starts.
 */
export function serviceForFile(handler: RequestListener, env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const server = createServer(handler);
  beforeAll(async () => void Object.assign(out, { PAYCTL_BASE_URL: await listening(server), ...env }));
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return out;
}

/** A stand-in for the test file: started before its first test, stopped after its last; routes reset per test. */
export function standInForFile(): StandIn {
  const routes: Array<{ method: string; re: RegExp; names: string[]; route: Route }> = [];
  const counts = new Map<string, number>();
  const stand: StandIn = {
    env: {},
    baseUrl: '',
    keyId: 'rzp_test_standin00001',
    keySecret: 'stand-in-secret-4711',
    on: (pattern, route) => routes.push({ ...compile(pattern), route }),
    log: [],
  };
  let server: Server;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://stand-in');
        const path = url.pathname.replace(/^\/v1/, '');
        const n = (counts.get(path) ?? 0) + 1;
        counts.set(path, n);
        const asked = { path, query: url.searchParams, n };
        stand.log.push(asked);
        let answer: Answer | undefined;
        for (const r of routes) {
          const m = req.method === r.method ? r.re.exec(path) : null;
          if (!m) continue;
          answer = r.route(asked, Object.fromEntries(r.names.map((name, i) => [name, decodeURIComponent(m[i + 1]!)])));
          if (answer) break;
        }
        answer ??= {
          status: 400,
          body: { error: { code: 'BAD_REQUEST_ERROR', description: 'The requested URL was not found on the server.' } },
        };
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
        res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
      });
    });
    server.keepAliveTimeout = 60_000;
    stand.baseUrl = await listening(server);
    stand.env = { PAYCTL_BASE_URL: stand.baseUrl, PAYCTL_KEY_ID: stand.keyId, PAYCTL_KEY_SECRET: stand.keySecret };
  });
  beforeEach(() => {
    routes.length = 0;
    counts.clear();
    stand.log.length = 0;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return stand;
}

/** A collection as the service answers one. */
export const collection = (items: unknown[]): Answer => ({
  body: { entity: 'collection', count: items.length, items },
});

export interface ListScript {
  /** The most rows a page holds, whatever was asked (a service with a smaller page size). */
  cap?: number;
  /** Shortens the page answered at this offset by one row (99 of 100). */
  shortAt?: number;
  /** Called after each page is answered, with how many were: the place to change the rows between pages. */
  afterPage?: (answered: number) => void;
}

/**
 * A list endpoint over `rows` (most recent first, filtered by from/to, paged by count/skip, as the
 * service pages), which the script may make short or change between pages.
 */
export function pagedList(rows: Array<{ created_at: number }>, script: ListScript = {}): Route {
  let answered = 0;
  return ({ query }) => {
    const from = query.has('from') ? Number(query.get('from')) : -Infinity;
    const to = query.has('to') ? Number(query.get('to')) : Infinity;
    const skip = Number(query.get('skip') ?? 0);
    let count = Math.min(Number(query.get('count') ?? 10), script.cap ?? Infinity);
    if (script.shortAt === skip) count--;
    const visible = rows
      .filter((r) => r.created_at >= from && r.created_at <= to)
      .sort((a, b) => b.created_at - a.created_at);
    const page = visible.slice(skip, skip + count);
    script.afterPage?.(++answered);
    return collection(page);
  };
}

/** A captured payment as the service sends one, `n` seconds after a fixed time (no calendar involved). */
export function payment(n: number, extra: Record<string, unknown> = {}) {
  const amount = 10_000 + n;
  const fee = Math.round(amount * 0.02);
  return {
    id: `pay_Stand${String(n).padStart(9, '0')}`,
    entity: 'payment',
    amount,
    currency: 'INR',
    status: 'captured',
    order_id: null,
    method: 'card',
    captured: true,
    amount_refunded: 0,
    refund_status: null,
    email: 'a@example.com',
    contact: '+919000090000',
    fee,
    tax: Math.round((fee * 18) / 118),
    notes: [],
    created_at: 1_714_000_000 + n,
    ...extra,
  };
}

/** A processed refund of a payment, as the service sends one. */
export function refund(n: number, extra: Record<string, unknown> = {}) {
  return {
    id: `rfnd_Stand${String(n).padStart(8, '0')}`,
    entity: 'refund',
    amount: 500,
    currency: 'INR',
    payment_id: payment(n).id,
    notes: [],
    receipt: null,
    status: 'processed',
    created_at: 1_714_000_000 + n,
    ...extra,
  };
}

/** A report paged by offset alone (the combined settlement report), which the script may make short or change. */
export function offsetList(rows: unknown[], script: ListScript = {}): Route {
  let answered = 0;
  return ({ query }) => {
    const skip = Number(query.get('skip') ?? 0);
    let count = Math.min(Number(query.get('count') ?? 10), script.cap ?? Infinity);
    if (script.shortAt === skip) count--;
    const page = rows.slice(skip, skip + count);
    script.afterPage?.(++answered);
    return collection(page);
  };
}
