import { createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { addProfile } from './harness';
import type { SandboxProcess } from './harness';

/**
 * What the proxy does with one request. "after" faults forward the request first and wait for the
 * service's answer, so the write *was* applied; "before" faults never forward it.
 */
export type Fault =
  | { type: 'pass' }
  | { type: 'drop-before' }
  | { type: 'drop-after' }
  | { type: 'reset-mid-body' }
  | { type: 'html-after'; status: number }
  | { type: 'empty-after'; status: number }
  | { type: 'status-before'; status: number; retryAfter?: string; body?: string }
  | { type: 'drip-after'; everyMs: number }
  | { type: 'hang-before' }
  /** Forwards (the write is applied) and never answers: the client gives up or is interrupted. */
  | { type: 'hang-after' }
  /**
   * Answers `status` (HTML) at once, and forwards the request only when `until` resolves: a request
   * that arrives after payctl has read back and given its verdict. `landed` hears the service's status.
   */
  | { type: 'held'; status: number; until: Promise<void>; landed?: (status: number) => void }
  /** Forwards, and answers with the service's JSON as `edit` rewrites it (a hostile service or proxy). */
  | { type: 'rewrite-after'; edit: (body: Record<string, unknown>) => unknown };

export interface ProxyRequest {
  method: string;
  path: string;
  /** 1-based count of requests seen so far with this method and path. */
  nth: number;
  /** 1-based count of all requests seen so far. */
  seq: number;
}

export interface FaultProxy {
  /** Base URL to give payctl: the upstream's base URL with the proxy's origin. */
  baseUrl: string;
  /** Requests seen, in order, with the fault applied to each. */
  log: Array<ProxyRequest & { fault: Fault['type'] }>;
  /** Changes the rule for later requests. */
  setRule(rule: (req: ProxyRequest) => Fault): void;
  close(): Promise<void>;
}

const HTML = (status: number) =>
  `<html><head><title>${status}</title></head><body><h1>${status} Request Timeout</h1><p>proxy</p></body></html>`;

/**
 * A fault-injecting HTTP proxy on loopback, between payctl and the sandbox. Each request is forwarded
 * or not, and answered truthfully or with a fault, as the rule says.
 */
export async function startFaultProxy(
  upstreamBaseUrl: string,
  rule: (req: ProxyRequest) => Fault = () => ({ type: 'pass' }),
): Promise<FaultProxy> {
  const upstream = new URL(upstreamBaseUrl);
  const counts = new Map<string, number>();
  const log: FaultProxy['log'] = [];
  const sockets = new Set<Socket>();
  let current = rule;

  const forward = (req: IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
      (resolve, reject) => {
        const out = httpRequest(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, host: upstream.host },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
            );
            res.on('error', reject);
          },
        );
        out.on('error', reject);
        out.end(body);
      },
    );

  const handle = async (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const key = `${req.method} ${(req.url ?? '').split('?')[0]}`;
    const nth = (counts.get(key) ?? 0) + 1;
    counts.set(key, nth);
    const info: ProxyRequest = { method: req.method ?? 'GET', path: req.url ?? '/', nth, seq: log.length + 1 };
    const fault = current(info);
    log.push({ ...info, fault: fault.type });
    switch (fault.type) {
      case 'drop-before':
        req.socket.destroy();
        return;
      case 'hang-before':
        return; // never answers; the client's deadline must end it
      case 'held':
        res.writeHead(fault.status, { 'content-type': 'text/html' });
        res.end(HTML(fault.status));
        await fault.until;
        fault.landed?.((await forward(req, body)).status);
        return;
      case 'status-before': {
        const headers: Record<string, string> = {
          'content-type': fault.body?.startsWith('{') ? 'application/json' : 'text/html',
        };
        if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
        res.writeHead(fault.status, headers);
        res.end(fault.body ?? '');
        return;
      }
      default:
        break;
    }
    const answer = await forward(req, body);
    switch (fault.type) {
      case 'pass': {
        const headers = { ...answer.headers };
        delete headers['transfer-encoding'];
        delete headers.connection;
        delete headers['keep-alive'];
        res.writeHead(answer.status, { ...headers, 'content-length': String(answer.body.length) });
        res.end(answer.body);
        return;
      }
      case 'drop-after':
        req.socket.destroy();
        return;
      case 'hang-after':
        return;
      case 'reset-mid-body':
        res.writeHead(answer.status, {
          'content-type': 'application/json',
          'content-length': String(answer.body.length),
        });
        res.write(answer.body.subarray(0, Math.max(1, Math.floor(answer.body.length / 2))));
        setTimeout(() => req.socket.destroy(), 10);
        return;
      case 'rewrite-after': {
        const edited = Buffer.from(JSON.stringify(fault.edit(JSON.parse(answer.body.toString('utf8')))));
        res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': String(edited.length) });
        res.end(edited);
        return;
      }
      case 'html-after':
        res.writeHead(fault.status, { 'content-type': 'text/html' });
        res.end(HTML(fault.status));
        return;
      case 'empty-after':
        res.writeHead(fault.status, { 'content-length': '0' });
        res.end();
        return;
      case 'drip-after': {
        res.writeHead(answer.status, {
          'content-type': 'application/json',
          'content-length': String(answer.body.length),
        });
        let i = 0;
        const timer = setInterval(() => {
          if (i >= answer.body.length || res.destroyed) {
            clearInterval(timer);
            if (!res.destroyed) res.end();
            return;
          }
          res.write(answer.body.subarray(i, i + 1));
          i++;
        }, fault.everyMs);
        res.on('close', () => clearInterval(timer));
        return;
      }
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks)).catch(() => req.socket.destroy());
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${upstream.pathname}`,
    log,
    setRule(next) {
      current = next;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A fault proxy in front of the file's shared sandbox (see sandboxForFile) for all the file's tests,
 * with the sandbox's key stored as profile `profile` pointed through it; closed after the last test.
 * Its fields are filled in once it starts.
 */
export function faultProxyForFile(sb: SandboxProcess, profile = 'viaproxy'): FaultProxy {
  const proxy = {} as FaultProxy;
  beforeAll(async () => {
    Object.assign(proxy, await startFaultProxy(sb.baseUrl));
    await addProfile(sb, profile, { baseUrl: proxy.baseUrl });
  });
  afterAll(async () => {
    await proxy.close?.();
  });
  return proxy;
}

/** A refund POST (`/payments/ID/refund`), single or one row of a bulk run. */
export const isRefundPost = (req: { method: string; path: string }) =>
  req.method === 'POST' && /\/refund$/.test(req.path);

/**
 * Holds the first refund request to each payment's refund path (answering 502 at once) until `release()`:
 * a request that lands after payctl gave its verdict. `landed` is the service's status for it.
 */
export function holdFirstRefund(proxy: FaultProxy) {
  let release!: () => void;
  let landedStatus!: (status: number) => void;
  const landed = new Promise<number>((r) => (landedStatus = r));
  const held = new Promise<void>((r) => (release = r));
  proxy.setRule((req) =>
    isRefundPost(req) && req.nth === 1
      ? { type: 'held', status: 502, until: held, landed: landedStatus }
      : { type: 'pass' },
  );
  return { release, landed };
}
