import { Pool, ProxyAgent, buildConnector } from 'undici';
import type { Dispatcher } from 'undici';
import { getCACertificates } from 'node:tls';

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

/** The pool's face to the HTTP layer: requests to the one origin it was made for. */
export interface Connection {
  request(opts: Omit<Dispatcher.RequestOptions, 'origin'>): Promise<Dispatcher.ResponseData>;
  destroy(): Promise<void>;
}

/** Failed before a byte of the request left: a proxy that refused the tunnel, a certificate not trusted. Retrying will not help. */
export const REFUSED_BEFORE_SENDING = 'PAYCTL_REFUSED_BEFORE_SENDING';
/** Failed while connecting (nothing sent), in a way that may pass: retried like a refused connection. */
export const CONNECT_FAILED = 'PAYCTL_CONNECT_FAILED';

export const refusedBeforeSending = (err: unknown) => (err as { code?: string })?.code === REFUSED_BEFORE_SENDING;

const TLS_TRUST = /CERT|SELF_SIGNED|UNABLE_TO_|ERR_TLS_|ERR_SSL_|ALTNAME/;

type Connector = (opts: never, callback: (err: Error | null, socket: unknown) => void) => void;

/** What a failure while connecting means, as one sentence naming the proxy or the CA problem. */
function explain(err: Error & { code?: string }, host: string, route: Route): Error {
  const code = err.code ?? '';
  const status = /Proxy response \((\d+)\)/.exec(err.message)?.[1];
  const via = route.proxy?.shown;
  let message: string;
  let final = true;
  if (status && via) {
    const why = status === '407' ? ': it wants credentials (user:password@ in the proxy URL)' : '';
    message = `the proxy ${via} refused the tunnel to ${host} with HTTP ${status}${why}`;
  } else if (TLS_TRUST.test(code) || TLS_TRUST.test((err.cause as { code?: string })?.code ?? '')) {
    const atProxy = [err, err.cause].some((e) => (e as { [AT_PROXY]?: boolean })?.[AT_PROXY]);
    const whose = atProxy && via ? `the proxy ${via}` : host;
    const trusted = route.ca ? `the system's CAs and ${route.ca.from}` : "the system's CAs";
    const hint = route.ca ? '' : '; a company CA is trusted with --ca-file or PAYCTL_CA_FILE';
    // Node's own advice (--use-system-ca) is for Node's command line, not payctl's.
    const reason = err.message.split(';')[0];
    message = `the TLS certificate of ${whose} is not trusted (${code}: ${reason}); trusted: ${trusted}${hint}`;
  } else if (via) {
    final = ['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL'].includes(code);
    message = `cannot reach the service through the proxy ${via} (${code || err.message})`;
  } else return err;
  return Object.assign(new Error(message, { cause: err }), { code: final ? REFUSED_BEFORE_SENDING : CONNECT_FAILED });
}

/** Marks errors of the connection to the proxy itself (an https:// proxy's certificate), as against the service's. */
const AT_PROXY = Symbol('payctl: at the proxy');
const atProxy =
  (connect: Connector): Connector =>
  (opts, callback) =>
    connect(opts, (err, socket) => callback(err && Object.assign(err, { [AT_PROXY]: true }), socket));

/** Every error of `connect` happens before the request is written: each is given its meaning here. */
const explained =
  (connect: Connector, host: string, route: Route): Connector =>
  (opts, callback) =>
    connect(opts, (err, socket) => (err ? callback(explain(err, host, route), null) : callback(null, socket)));

/**
 * One undici pool for the run (DESIGN section 6), from undici's public exports: direct, or through a
 * CONNECT tunnel of undici's ProxyAgent. An extra CA is trusted in addition to Node's default set.
 */
export function createPool(origin: string, options: PoolOptions, route: Route = {}): Connection {
  const host = new URL(origin).host;
  const ca = route.ca ? [...getCACertificates('default'), route.ca.pem] : undefined;
  let dispatcher: Dispatcher;
  if (route.proxy) {
    dispatcher = new ProxyAgent({
      uri: route.proxy.url,
      // A company CA often signs the proxy's own certificate too (an https:// proxy).
      requestTls: ca ? { ca } : undefined,
      proxyTls: ca ? { ca } : undefined,
      clientFactory: (o: string | URL, opts: Pool.Options & { connect?: Connector }) =>
        new Pool(o, { ...opts, connect: atProxy(opts.connect!) as never }),
      factory: (o: string | URL, opts: Pool.Options & { connect?: Connector }) =>
        new Pool(o, { ...opts, ...options, connect: explained(opts.connect!, host, route) as never }),
    } as ProxyAgent.Options);
  } else {
    const connect = buildConnector({ ca, timeout: 10_000 }) as unknown as Connector;
    dispatcher = new Pool(origin, { ...options, connect: explained(connect, host, route) as never });
  }
  return {
    request: (opts) => dispatcher.request({ ...opts, origin } as Dispatcher.RequestOptions),
    destroy: () => dispatcher.destroy(),
  };
}
