import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';

/** A CA, a server certificate it signs (for `names`), and a second CA that signs nothing here. */
export interface TestCerts {
  caFile: string;
  otherCaFile: string;
  key: string;
  cert: string;
}

/** Certificates are made with the openssl CLI (Node can read certificates but not issue them). */
export const HAS_OPENSSL = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;

const openssl = (dir: string, ...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });

/** A new P-256 key, unencrypted, for `openssl req`. */
const NEW_EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** Made with the openssl CLI into `dir`: a CA valid for a day and a server certificate for the names. */
export function makeCerts(dir: string, names: string[]): TestCerts {
  const ca = (name: string, cn: string) =>
    openssl(
      dir,
      'req',
      '-x509',
      ...NEW_EC_KEY,
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.pem`,
      '-days',
      '1',
      '-subj',
      `/CN=${cn}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
  ca('ca', 'payctl test company CA');
  ca('other-ca', 'payctl test unrelated CA');
  openssl(dir, 'req', ...NEW_EC_KEY, '-keyout', 'server.key', '-out', 'server.csr', '-subj', `/CN=${names[0]}`);
  writeFileSync(
    join(dir, 'server.ext'),
    `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}\nbasicConstraints=CA:FALSE\n` +
      'keyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n',
  );
  openssl(
    dir,
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '1',
    '-extfile',
    'server.ext',
  );
  return {
    caFile: join(dir, 'ca.pem'),
    otherCaFile: join(dir, 'other-ca.pem'),
    key: readFileSync(join(dir, 'server.key'), 'utf8'),
    cert: readFileSync(join(dir, 'server.pem'), 'utf8'),
  };
}

function pipeBoth(a: Socket, b: Socket) {
  a.pipe(b);
  b.pipe(a);
  a.on('error', () => b.destroy());
  b.on('error', () => a.destroy());
  a.on('close', () => b.destroy());
  b.on('close', () => a.destroy());
}

async function listening(server: Server, host = '127.0.0.1'): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

export interface Closer {
  port: number;
  close(): Promise<void>;
}

function closer(server: Server, port: number, sockets: Set<Socket>): Closer {
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The service's TLS front: TLS on a loopback port, plain HTTP to `upstreamPort` behind it. */
export async function startTlsFront(certs: TestCerts, upstreamPort: number): Promise<Closer> {
  const sockets = new Set<Socket>();
  const server = createTlsServer({ key: certs.key, cert: certs.cert }, (secure) => {
    sockets.add(secure);
    pipeBoth(secure, connect(upstreamPort, '127.0.0.1'));
  });
  server.on('tlsClientError', () => undefined);
  return closer(server, await listening(server), sockets);
}

export interface ConnectProxyOptions {
  /** `host:port` the proxy resolves, to a loopback port: the only way to reach e.g. `payments.test`. */
  hosts: Record<string, number>;
  /** `user:password` the proxy demands (407 without it). */
  auth?: string;
  /** Refuse every tunnel with this status. */
  refuse?: number;
  /** Serve the proxy itself over TLS with this certificate (an https:// proxy). */
  tls?: TestCerts;
}

export interface ConnectProxy extends Closer {
  url: string;
  /** Every connection made to the proxy, with the CONNECT target asked for and the answer given. */
  log: Array<{ target: string; status: number }>;
  /** Connections accepted (also those that never sent a CONNECT). */
  connections: number;
}

/** A CONNECT proxy on loopback, written on node:net as small proxies are. */
export async function startConnectProxy(opts: ConnectProxyOptions): Promise<ConnectProxy> {
  const sockets = new Set<Socket>();
  const log: ConnectProxy['log'] = [];
  const state = { connections: 0 };
  const answer = (client: Socket, status: number, reason: string, extra = '') => {
    client.end(`HTTP/1.1 ${status} ${reason}\r\n${extra}Content-Length: 0\r\nConnection: close\r\n\r\n`);
  };
  const handle = (client: Socket) => {
    state.connections++;
    sockets.add(client);
    client.on('error', () => undefined);
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      client.off('data', onData);
      client.pause();
      const [line = '', ...headers] = head.subarray(0, end).toString('latin1').split('\r\n');
      const rest = head.subarray(end + 4);
      const [method, target = ''] = line.split(' ');
      const header = (name: string) =>
        headers
          .find((h) => h.toLowerCase().startsWith(`${name}:`))
          ?.slice(name.length + 1)
          .trim();
      const entry = { target, status: 200 };
      log.push(entry);
      const port = opts.hosts[target.toLowerCase()];
      if (method !== 'CONNECT') return answer(client, (entry.status = 405), 'Method Not Allowed');
      if (opts.auth && header('proxy-authorization') !== `Basic ${Buffer.from(opts.auth).toString('base64')}`)
        return answer(
          client,
          (entry.status = 407),
          'Proxy Authentication Required',
          'Proxy-Authenticate: Basic realm="t"\r\n',
        );
      if (opts.refuse) return answer(client, (entry.status = opts.refuse), 'Refused');
      if (!port) return answer(client, (entry.status = 502), 'Bad Gateway');
      const upstream = connect(port, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (rest.length) upstream.write(rest);
        pipeBoth(client, upstream);
        client.resume();
      });
      sockets.add(upstream);
      upstream.on('error', () => client.destroy());
    };
    client.on('data', onData);
  };
  const server = opts.tls ? createTlsServer({ key: opts.tls.key, cert: opts.tls.cert }, handle) : createServer(handle);
  const port = await listening(server);
  const base = closer(server, port, sockets);
  return {
    ...base,
    url: opts.tls ? `https://localhost:${port}` : `http://127.0.0.1:${port}`,
    log,
    get connections() {
      return state.connections;
    },
  };
}
