import type { Agent, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import type { ConnectionOptions, TLSSocket } from 'node:tls';

/** How requests reach the service: through a proxy or not, and which CAs are trusted besides Node's own. */
export interface Route {
  /** The proxy's URL (credentials included), the same redacted for messages, and the variable that named it. */
  proxy?: { url: string; shown: string; from?: string };
  /** Extra CA certificates (PEM) and where they came from (`--ca-file /path`), for messages. */
  ca?: { pem: string; from: string };
}

interface PoolOptions {
  connections: number;
  keepAliveTimeout: number;
}

/** One attempt, as the HTTP layer asks for it: a path below the pool's origin. */
export interface AttemptOptions {
  path: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Aborting it ends the attempt, whatever stage it is at, with the signal's reason. */
  signal: AbortSignal;
}

/** An attempt's answer: the status and headers, and the body as it arrives. */
export interface AttemptAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Readable;
}

/** The pool's face to the HTTP layer: requests to the one origin it was made for. */
export interface Connection {
  request(opts: AttemptOptions): Promise<AttemptAnswer>;
  destroy(): Promise<void>;
}

/** Failed before a byte of the request left: a proxy that refused the tunnel, a certificate not trusted. Retrying will not help. */
export const REFUSED_BEFORE_SENDING = 'PAYCTL_REFUSED_BEFORE_SENDING';
/** Failed while connecting (nothing sent), in a way that may pass: retried like a refused connection. */
export const CONNECT_FAILED = 'PAYCTL_CONNECT_FAILED';

export const refusedBeforeSending = (err: unknown) => (err as { code?: string })?.code === REFUSED_BEFORE_SENDING;

const TLS_TRUST = /CERT|SELF_SIGNED|UNABLE_TO_|ERR_TLS_|ERR_SSL_|ALTNAME/;
const CONNECT_TIMEOUT_MS = 10_000;

type Failure = Error & { code?: string };

/** Where a connection failed: reaching the proxy, the proxy's answer to CONNECT, or the service itself. */
type Stage = { at: 'proxy' } | { at: 'tunnel'; status: number } | { at: 'service' };

/** What a failure while connecting means, as one sentence naming the proxy or the CA problem. */
function explain(err: Failure, stage: Stage, host: string, route: Route): Error {
  const code = err.code ?? '';
  const via = route.proxy?.shown;
  let message: string;
  let final = true;
  if (stage.at === 'tunnel' && via) {
    const why = stage.status === 407 ? ': it wants credentials (user:password@ in the proxy URL)' : '';
    message = `the proxy ${via} refused the tunnel to ${host} with HTTP ${stage.status}${why}`;
  } else if (TLS_TRUST.test(code)) {
    const whose = stage.at === 'proxy' && via ? `the proxy ${via}` : host;
    const trusted = route.ca ? `the system's CAs and ${route.ca.from}` : "the system's CAs";
    const hint = route.ca ? '' : '; a company CA is trusted with --ca-file or PAYCTL_CA_FILE';
    // Node's own advice (--use-system-ca) is for Node's command line, not payctl's.
    const reason = err.message.split(';')[0];
    message = `the TLS certificate of ${whose} is not trusted (${code}: ${reason}); trusted: ${trusted}${hint}`;
  } else if (via) {
    final = ['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL'].includes(code);
    message = `cannot reach the service through the proxy ${via} (${code || err.message})`;
  } else if (code === CONNECT_TIMEOUT) {
    message = err.message;
    final = false;
  } else return err;
  return Object.assign(new Error(message, { cause: err }), { code: final ? REFUSED_BEFORE_SENDING : CONNECT_FAILED });
}

const CONNECT_TIMEOUT = 'PAYCTL_CONNECT_TIMEOUT';

/**
 * `socket` once it is connected (for TLS: once the handshake succeeded), or its error. A socket not
 * connected within the connect timeout is destroyed and fails as not sent.
 */
function connected<S extends Socket>(socket: S, event: 'connect' | 'secureConnect'): Promise<S> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      const err = Object.assign(new Error(`no connection within ${CONNECT_TIMEOUT_MS / 1000}s`), {
        code: CONNECT_TIMEOUT,
      });
      socket.destroy();
      reject(err);
    }, CONNECT_TIMEOUT_MS);
    const done = (err?: Error) => {
      clearTimeout(timer);
      socket.off('error', done);
      socket.off(event, ok);
      if (err) reject(err);
      else resolve(socket);
    };
    const ok = () => done();
    socket.once('error', done);
    socket.once(event, ok);
  });
}

/** A CONNECT tunnel through the proxy to `host:port`: the socket to speak TLS over, or where it failed. */
async function tunnel(proxy: URL, authority: string, tls: typeof import('node:tls'), ca: string[] | undefined) {
  const secure = proxy.protocol === 'https:';
  const port = Number(proxy.port) || (secure ? 443 : 80);
  const host = proxy.hostname.replace(/^\[|\]$/g, '');
  const toProxy = secure
    ? await connected(tls.connect({ host, port, servername: host, ca }), 'secureConnect')
    : await connected(process.getBuiltinModule('node:net').connect({ host, port }), 'connect');
  const headers: Record<string, string> = { host: authority };
  if (proxy.username)
    headers['proxy-authorization'] =
      'Basic ' +
      Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64');
  const { request } = process.getBuiltinModule('node:http');
  return new Promise<Socket>((resolve, reject) => {
    const req = request({ method: 'CONNECT', path: authority, headers, createConnection: () => toProxy });
    req.once('connect', (res: IncomingMessage, socket: Socket) => {
      if (res.statusCode === 200) return resolve(socket);
      socket.destroy();
      reject(Object.assign(new Error(`proxy answered ${res.statusCode}`), { status: res.statusCode }));
    });
    req.once('error', (err) => reject(Object.assign(err, { atProxy: true })));
    req.end();
  });
}

/**
 * One keep-alive pool for the run (DESIGN section 6): Node's own http/https agent, its connections
 * made here: direct, or through a CONNECT tunnel of the proxy. A connection is handed to the agent only
 * once it is up (TLS included), so every failure before that is known to have sent nothing, and is
 * given its meaning here. An extra CA is trusted in addition to Node's default set.
 */
export function createPool(origin: string, options: PoolOptions, route: Route = {}): Connection {
  const target = new URL(origin);
  const host = target.host;
  const secure = target.protocol === 'https:';
  const http = (secure ? process.getBuiltinModule('node:https') : process.getBuiltinModule('node:http')) as Pick<
    typeof import('node:http'),
    'Agent' | 'request'
  >;
  const tls = secure || route.proxy ? process.getBuiltinModule('node:tls') : undefined;
  const ca = route.ca && tls ? [...tls.getCACertificates('default'), route.ca.pem] : undefined;
  const hostname = target.hostname.replace(/^\[|\]$/g, '');
  const port = Number(target.port) || (secure ? 443 : 80);

  const connect = async (): Promise<Socket> => {
    if (!secure) return connected(process.getBuiltinModule('node:net').connect({ host: hostname, port }), 'connect');
    const tlsOptions: ConnectionOptions = {
      host: hostname,
      port,
      servername: hostname,
      ca,
      ALPNProtocols: ['http/1.1'],
    };
    if (route.proxy) {
      const stage = { at: 'proxy' } as Stage;
      let socket: Socket;
      try {
        socket = await tunnel(new URL(route.proxy.url), `${hostname}:${port}`, tls!, ca);
      } catch (err) {
        const status = (err as { status?: number }).status;
        throw explain(err as Failure, status ? { at: 'tunnel', status } : stage, host, route);
      }
      tlsOptions.socket = socket;
    }
    try {
      return await connected<TLSSocket>(tls!.connect(tlsOptions), 'secureConnect');
    } catch (err) {
      throw explain(err as Failure, { at: 'service' }, host, route);
    }
  };

  const agent: Agent = new http.Agent({
    keepAlive: true,
    maxSockets: options.connections,
    timeout: options.keepAliveTimeout,
  });
  // The agent's public hook for making a connection: handed over by callback once it is up.
  agent.createConnection = ((_: unknown, callback: (err: Error | null, socket?: Socket) => void) => {
    connect().then(
      (socket) => callback(null, socket),
      (err: Failure) => callback(secure || route.proxy ? err : explain(err, { at: 'service' }, host, route)),
    );
  }) as unknown as Agent['createConnection'];

  return {
    request: (opts) =>
      new Promise<AttemptAnswer>((resolve, reject) => {
        const { signal } = opts;
        if (signal.aborted) return reject(signal.reason);
        const req = http.request({
          agent,
          host: hostname,
          port,
          path: opts.path,
          method: opts.method,
          headers:
            opts.body === undefined
              ? opts.headers
              : { ...opts.headers, 'content-length': Buffer.byteLength(opts.body) },
        });
        let res: IncomingMessage | undefined;
        const abort = () => {
          const reason = signal.reason as Error;
          reject(reason);
          if (res) res.destroy(reason);
          else req.destroy(reason);
        };
        signal.addEventListener('abort', abort, { once: true });
        req.once('error', (err) => {
          signal.removeEventListener('abort', abort);
          reject(err);
        });
        req.once('response', (answer: IncomingMessage) => {
          res = answer;
          answer.once('close', () => signal.removeEventListener('abort', abort));
          resolve({ statusCode: answer.statusCode ?? 0, headers: answer.headers, body: answer });
        });
        req.end(opts.body);
      }),
    destroy: async () => agent.destroy(),
  };
}
