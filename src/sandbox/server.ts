import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { adminRoute } from './admin';
import type { AdminDeps } from './admin';
import { ADMIN_PREFIX } from '../contract/admin-api';
import type { Account, Accounts } from './accounts';
import { CHALLENGE, invalidKey, keyIdOf, rateLimiter } from './auth';
import type { SandboxConfig } from './context';
import { dispatch, findEndpoint } from './dispatch';
import { SandboxError, errorBody, unknownUrl } from './errors';
import { faultInjector } from './faults';
import { IDEMPOTENCY_HEADER, InFlightKeys, checkedKey } from './idempotency';
import type { RefundKey } from './idempotency';
import { readBody, parseJson, requestUrl, send, sendError, serverError } from './transport';

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
  /** Whose key a request carries decides the account (database, clock, webhooks) it is served from. */
  accounts: Accounts;
  config: SandboxConfig;
}

export interface SandboxServer {
  server: Server;
  /** Service requests received (/v1), for `sandbox stats`. */
  requests: () => number;
  /** Waits for webhook deliveries under way (see WebhookSender.drain). */
  drain: () => Promise<void>;
}

/** How long an idle keep-alive connection is kept, as the real service's front end does. */
export const KEEP_ALIVE_MS = 65_000;

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;

/** node:http server for /v1 (the service) and /_sandbox (admin), with auth, rate limit and faults. */
export function createSandboxServer(opts: ServerOptions): SandboxServer {
  const { accounts, config } = opts;
  const rateLimited = rateLimiter(opts.rateLimit);
  const nextFault = faultInjector(opts);
  const inFlight = new InFlightKeys();
  let requests = 0;
  const adminDeps = (account: Account): AdminDeps => ({
    ...account,
    config,
    requests: () => account.requests,
    account,
    accounts,
  });

  /** The account's sandbox time for a request, with everything due by then done first. */
  const serve = (account: Account) => () => {
    const now = account.clock.now();
    account.runDueWork(now);
    return { store: account.store, config, now };
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
    const account = accounts.authenticate(req);
    if (!account) {
      await readBody(req).catch(() => '');
      return sendError(res, invalidKey(), CHALLENGE);
    }
    account.requests++;
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
      await answer(req, res, url, path, refundKey, serve(account));
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
    served: Parameters<typeof dispatch>[1],
  ) => {
    const fault = await nextFault();
    if (fault === 'drop_before') return void req.socket.destroy();
    if (fault === 'error_before') return sendError(res, serverError());
    let status = 200;
    let body: unknown;
    try {
      const rawBody = await readBody(req);
      const request = { method: req.method ?? 'GET', path, rawBody, refundKey };
      body = dispatch({ ...request, query: url.searchParams }, served);
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
    const account = accounts.authenticate(req);
    if (!account) return sendError(res, invalidKey(), CHALLENGE);
    try {
      const body = parseJson(await readBody(req), false);
      account.runDueWork(account.clock.now());
      const path = url.pathname.slice(ADMIN_PREFIX.length);
      send(res, 200, adminRoute(req.method ?? 'GET', path, body, adminDeps(account)));
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
  // The real front end keeps an idle connection about a minute; Node's default of 5 s races every client
  // whose own idle timeout is also 5 s (Node's global agent, the official SDK's), which then writes its
  // next request into a socket the server is closing (ECONNRESET). headersTimeout stays above it.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  return { server, requests: () => requests, drain: () => accounts.drain() };
}
