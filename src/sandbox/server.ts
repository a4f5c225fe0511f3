import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import * as z from 'zod/mini';
import { describeIssue, endpoints, matchPath } from '../contract';
import type { EndpointName } from '../contract';
import { adminRoute } from './admin';
import type { SandboxConfig } from './context';
import { SandboxError, errorBody, unknownUrl } from './errors';
import { seededRandom } from './ids';
import { takeEmitted, webhookSender } from './events';
import { refuseUnknownFields } from './strict';
import { settleDue } from './payments';
import { settleSubscriptions } from './subscriptions';
import { settlePayouts } from './wallet';
import { routes } from './routes';
import type { Store } from './store';

export interface ServerOptions {
  store: Store;
  keyId: string;
  keySecret: string;
  config: SandboxConfig;
  rateLimit?: number;
  faultRate?: number;
  latencyMs?: number;
  seed?: number;
  /** Where events are POSTed, signed with webhookSecret, with retries. */
  webhook?: string;
  webhookSecret: string;
}

const MAX_BODY = 1024 * 1024;
/** A fetch by id takes no query parameters: any one sent is refused like an unknown body field. */
const NO_QUERY = z.object({});
type Fault = 'none' | 'error_before' | 'error_after' | 'drop_before' | 'drop_after';

const digest = (s: string) => createHash('sha256').update(s).digest();

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (res.destroyed) return;
  const text = JSON.stringify(body);
  // A request refused before its body was read (too large) leaves unread bytes on the connection:
  // close it after answering, or the next request on it would be read from the middle of that body.
  const close = res.req.complete ? {} : { connection: 'close' };
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...close,
    ...headers,
  });
  res.end(text);
}

/**
 * The body as text. One larger than 1 MiB is read to its end but not kept, and then refused, so the
 * client gets its 400 instead of a broken pipe; past 16 MiB the connection is simply cut.
 */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 16 * MAX_BODY) req.destroy();
      else if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () =>
      size > MAX_BODY
        ? reject(new SandboxError('The request body is larger than 1 MiB'))
        : resolve(Buffer.concat(chunks).toString('utf8')),
    );
    req.on('error', reject);
    // Cut off (too large, or the client went away): settle, so the request's handler does not wait forever.
    req.on('close', () => {
      if (!req.complete) reject(new SandboxError('The request body was not received in full'));
    });
  });
}

function queryOf(url: URL): Record<string, string> {
  const q: Record<string, string> = {};
  for (const [k, v] of url.searchParams) q[k] = v;
  return q;
}

function validated(
  schema: { safeParse(v: unknown): { success: boolean; data?: unknown; error?: unknown } } | undefined,
  input: unknown,
) {
  if (!schema) return input;
  refuseUnknownFields(schema, input);
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const error = r.error as Parameters<typeof describeIssue>[0];
  throw new SandboxError(describeIssue(error, input), 400, error.issues[0]?.path.map(String).join('.') || undefined);
}

/** node:http server for /v1 (the service) and /_sandbox (admin), with auth, rate limit and faults. */
export function createSandboxServer(opts: ServerOptions): {
  server: Server;
  requests: () => number;
  drain: () => Promise<void>;
} {
  const { store, config } = opts;
  const sender = webhookSender(store, opts.webhook, opts.webhookSecret);
  /** Sends what was emitted, once its transaction has committed (a rolled-back event is gone from the store). */
  const flush = () => {
    for (const e of takeEmitted(store)) if (store.get('event', String(e.id))) sender.send(e);
  };
  /**
   * Everything that falls due by sandbox time `t`: auto-refunds, subscription cycles, payout outcomes.
   * Nothing new can fall due within the same sandbox second unless something was written, so a run of
   * reads in one second settles once.
   */
  let settled = '';
  const settle = (t: number) => {
    const mark = `${t}:${store.writes}`;
    if (mark === settled) return;
    settleDue(store, t);
    settleSubscriptions(store, t, config.captureWindowSeconds);
    settlePayouts(store, t);
    flush();
    settled = `${t}:${store.writes}`;
  };
  const random = seededRandom(opts.seed ?? Date.now());
  const expected = digest(`${opts.keyId}:${opts.keySecret}`);
  let requests = 0;
  let tokens = opts.rateLimit ?? 0;
  let refilled = Date.now();

  const now = () => Math.floor(Date.now() / 1000) + Number(store.meta('clock_offset') ?? 0);

  const authorized = (req: IncomingMessage) => {
    const header = req.headers.authorization ?? '';
    if (!header.startsWith('Basic ')) return false;
    return timingSafeEqual(digest(Buffer.from(header.slice(6), 'base64').toString('utf8')), expected);
  };

  const rateLimited = () => {
    if (!opts.rateLimit) return false;
    const t = Date.now();
    tokens = Math.min(opts.rateLimit, tokens + ((t - refilled) / 1000) * opts.rateLimit);
    refilled = t;
    if (tokens < 1) return true;
    tokens -= 1;
    return false;
  };

  const pickFault = (): Fault => {
    if (!opts.faultRate || random() >= opts.faultRate) return 'none';
    return (['error_before', 'error_after', 'drop_before', 'drop_after'] as const)[Math.floor(random() * 4)]!;
  };

  async function service(req: IncomingMessage, res: ServerResponse, url: URL) {
    requests++;
    if (!authorized(req)) {
      await readBody(req).catch(() => '');
      return send(res, 401, errorBody(new SandboxError('The api key provided is invalid', 401, undefined)), {
        'www-authenticate': 'Basic realm="sandbox"',
      });
    }
    if (rateLimited()) return send(res, 429, errorBody(new SandboxError('Too many requests', 429)));
    const fault = pickFault();
    if (opts.latencyMs) await sleep(opts.latencyMs);
    if (fault === 'drop_before') return req.socket.destroy();
    if (fault === 'error_before')
      return send(
        res,
        500,
        errorBody(new SandboxError('The server encountered an error', 500, undefined, 'SERVER_ERROR')),
      );

    const path = url.pathname.slice('/v1'.length);
    const method = req.method ?? 'GET';
    let found: { name: EndpointName; params: Record<string, string> } | undefined;
    for (const [name, ep] of Object.entries(endpoints)) {
      const params = ep.method === method ? matchPath(ep.path, path) : null;
      if (params) {
        found = { name: name as EndpointName, params };
        break;
      }
    }
    let status = 200;
    let body: unknown;
    try {
      const raw = await readBody(req);
      if (!found) throw unknownUrl();
      const handler = routes[found.name];
      if (!handler) throw new SandboxError(`${method} ${path} is not implemented in the sandbox yet`);
      let parsed: unknown = {};
      if (method === 'POST' && raw.trim()) {
        try {
          parsed = JSON.parse(raw);
        } catch {
          throw new SandboxError('The request body is not valid JSON');
        }
      }
      if (method === 'POST' && (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)))
        throw new SandboxError('The request body must be a JSON object');
      const ep = endpoints[found.name];
      const t = now();
      settle(t);
      body = handler({
        store,
        now: t,
        config,
        params: found.params,
        body: (method === 'POST' ? validated('body' in ep ? ep.body : undefined, parsed) : {}) as Record<
          string,
          unknown
        >,
        query: validated('query' in ep ? ep.query : NO_QUERY, queryOf(url)) as Record<string, unknown>,
      });
    } catch (err) {
      if (!(err instanceof SandboxError)) throw err;
      status = err.status;
      body = errorBody(err);
    } finally {
      flush();
    }
    if (fault === 'drop_after') return req.socket.destroy();
    if (fault === 'error_after')
      return send(
        res,
        500,
        errorBody(new SandboxError('The server encountered an error', 500, undefined, 'SERVER_ERROR')),
      );
    send(res, status, body);
  }

  async function admin(req: IncomingMessage, res: ServerResponse, url: URL) {
    if (!authorized(req))
      return send(res, 401, errorBody(new SandboxError('The api key provided is invalid', 401)), {
        'www-authenticate': 'Basic realm="sandbox"',
      });
    try {
      const raw = await readBody(req);
      let parsed: unknown = {};
      if (raw.trim()) {
        try {
          parsed = JSON.parse(raw);
        } catch {
          throw new SandboxError('The request body is not valid JSON');
        }
      }
      settle(now());
      send(
        res,
        200,
        adminRoute(req.method ?? 'GET', url.pathname.slice('/_sandbox'.length), parsed, {
          store,
          config,
          now,
          settle,
          requests: () => requests,
        }),
      );
    } catch (err) {
      if (!(err instanceof SandboxError)) throw err;
      send(res, err.status, errorBody(err));
    } finally {
      flush();
    }
  }

  const server = createServer((req, res) => {
    let url: URL;
    // URL parsing resolves `..` (also as %2e%2e), which would turn /payments/X/../../orders into
    // another endpoint: a path holding dot segments is refused as it arrives.
    const rawPath = (req.url ?? '/').split('?')[0]!;
    if (rawPath.split('/').some((seg) => /^(\.|%2e){1,2}$/i.test(seg))) {
      return send(res, 400, errorBody(new SandboxError('The requested URL is malformed: it holds . or .. segments')));
    }
    try {
      url = new URL(req.url ?? '/', 'http://sandbox');
    } catch {
      return send(res, 400, errorBody(new SandboxError('The requested URL is malformed')));
    }
    const handle = url.pathname.startsWith('/v1/')
      ? service
      : url.pathname.startsWith('/_sandbox/')
        ? admin
        : undefined;
    if (!handle) return send(res, 400, errorBody(unknownUrl()));
    handle(req, res, url).catch((err: unknown) => {
      process.stderr.write(`sandbox: unexpected error: ${(err as Error)?.stack ?? String(err)}\n`);
      send(
        res,
        500,
        errorBody(new SandboxError('The server encountered an unexpected error', 500, undefined, 'SERVER_ERROR')),
      );
    });
  });
  return { server, requests: () => requests, drain: () => sender.drain() };
}
