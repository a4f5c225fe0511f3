import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { adminRoute } from './admin';
import type { AdminDeps } from './admin';
import { ADMIN_PREFIX } from './admin-api';
import { CHALLENGE, basicAuth, invalidKey, keyIdOf, rateLimiter } from './auth';
import { sandboxClock } from './clock';
import type { SandboxConfig } from './context';
import { dispatch, findEndpoint } from './dispatch';
import { dueWork } from './due-work';
import { SandboxError, errorBody, unknownUrl } from './errors';
import { faultInjector } from './faults';
import { IDEMPOTENCY_HEADER, InFlightKeys, checkedKey } from './idempotency';
import type { RefundKey } from './idempotency';
import type { Store } from './store';
import { readBody, parseJson, requestUrl, send, sendError, serverError } from './transport';
import { webhookSender } from './webhooks';

/** What `sandbox start` can turn on to make the service misbehave the ways the real one does. */
export interface Misbehaviour {
  rateLimit?: number;
  faultRate?: number;
  latencyMs?: number;
  seed?: number;
  /** Ignore `X-Refund-Idempotency`, as a service without it would (--no-idempotency). */
  ignoreIdempotency?: boolean;
}

export interface ServerOptions extends Misbehaviour {
  store: Store;
  keyId: string;
  keySecret: string;
  config: SandboxConfig;
  /** Where events are POSTed, signed with the sandbox's webhook secret, with retries. */
  webhook?: string;
}

export interface SandboxServer {
  server: Server;
  /** Service requests received (/v1), for `sandbox stats`. */
  requests: () => number;
  /** Waits for webhook deliveries under way (see WebhookSender.drain). */
  drain: () => Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;

/** node:http server for /v1 (the service) and /_sandbox (admin), with auth, rate limit and faults. */
export function createSandboxServer(opts: ServerOptions): SandboxServer {
  const { store, config } = opts;
  const clock = sandboxClock(store);
  const start = opts.webhook ? { url: opts.webhook } : undefined;
  const webhooks = webhookSender(store, clock, start);
  const runDueWork = dueWork(store, config.captureWindowSeconds);
  const authorized = basicAuth(opts.keyId, opts.keySecret);
  const rateLimited = rateLimiter(opts.rateLimit);
  const nextFault = faultInjector(opts);
  const inFlight = new InFlightKeys();
  let requests = 0;
  const adminDeps: AdminDeps = { store, config, clock, runDueWork, requests: () => requests, webhooks };

  /** Sandbox time for a request, with everything due by then done first. */
  const serve = () => {
    const now = clock.now();
    runDueWork(now);
    return { store, config, now };
  };

  /** The checked idempotency key of a refund request (400 when malformed), if it has one that counts. */
  const refundKeyOf = (req: IncomingMessage, path: string): RefundKey | undefined => {
    // Only a refund is looked up in the endpoint table: every other request (a bulk capture's) skips it.
    if (opts.ignoreIdempotency || req.method !== 'POST' || !path.endsWith('/refund')) return undefined;
    if (findEndpoint('POST', path)?.name !== 'refundPayment') return undefined;
    return checkedKey(req.headers[IDEMPOTENCY_HEADER], keyIdOf(req));
  };

  const service: Handler = async (req, res, url) => {
    requests++;
    if (!authorized(req)) {
      await readBody(req).catch(() => '');
      return sendError(res, invalidKey(), CHALLENGE);
    }
    if (rateLimited()) return sendError(res, new SandboxError('Too many requests', 429));
    const path = url.pathname.slice('/v1'.length);
    let refundKey: RefundKey | undefined;
    let release: (() => void) | undefined;
    try {
      refundKey = refundKeyOf(req, path);
      // Claimed on arrival: the request is "being processed" from here until it is answered.
      release = refundKey && inFlight.claim(refundKey);
    } catch (err) {
      await readBody(req).catch(() => '');
      return sendError(res, err as SandboxError);
    }
    try {
      await answer(req, res, url, path, refundKey);
    } finally {
      release?.();
    }
  };

  const answer = async (
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    path: string,
    refundKey: RefundKey | undefined,
  ) => {
    const fault = await nextFault();
    if (fault === 'drop_before') return void req.socket.destroy();
    if (fault === 'error_before') return sendError(res, serverError());
    let status = 200;
    let body: unknown;
    try {
      const rawBody = await readBody(req);
      const request = { method: req.method ?? 'GET', path, rawBody, refundKey };
      body = dispatch({ ...request, query: url.searchParams }, serve);
    } catch (err) {
      if (!(err instanceof SandboxError)) throw err;
      status = err.status;
      body = errorBody(err);
    }
    if (fault === 'drop_after') return void req.socket.destroy();
    if (fault === 'error_after') return sendError(res, serverError());
    send(res, status, body);
  };

  const admin: Handler = async (req, res, url) => {
    if (!authorized(req)) return sendError(res, invalidKey(), CHALLENGE);
    try {
      const body = parseJson(await readBody(req), false);
      runDueWork(clock.now());
      const path = url.pathname.slice(ADMIN_PREFIX.length);
      send(res, 200, adminRoute(req.method ?? 'GET', path, body, adminDeps));
    } catch (err) {
      if (!(err instanceof SandboxError)) throw err;
      sendError(res, err);
    }
  };

  const server = createServer((req, res) => {
    let url: URL;
    try {
      url = requestUrl(req);
    } catch (err) {
      return sendError(res, err as SandboxError);
    }
    const path = url.pathname;
    const handle = path.startsWith('/v1/') ? service : path.startsWith(`${ADMIN_PREFIX}/`) ? admin : undefined;
    if (!handle) return sendError(res, unknownUrl());
    handle(req, res, url).catch((err: unknown) => {
      process.stderr.write(`sandbox: unexpected error: ${(err as Error)?.stack ?? String(err)}\n`);
      sendError(res, serverError('The server encountered an unexpected error'));
    });
  });
  return { server, requests: () => requests, drain: () => webhooks.drain() };
}
