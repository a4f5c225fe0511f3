import type { Credentials } from './credentials';
import { proxyFor, readCaFile } from './network';
import type { NetworkSettings } from './network';

/** How the HTTP layer reaches these credentials' service: the proxy the environment names for it, and the extra CAs. */
export function routeFor(creds: Credentials, net: NetworkSettings = {}) {
  const proxy = creds.source === 'sandbox' ? undefined : proxyFor(creds.baseUrl, net);
  const files = [
    ...(creds.caFile ? [{ path: creds.caFile, what: `--ca-file of ${creds.source}` }] : []),
    ...(net.caFile ? [{ path: net.caFile, what: 'PAYCTL_CA_FILE' }] : []),
  ];
  const ca = files.length
    ? {
        pem: files.map((f) => readCaFile(f.path, f.what)).join('\n'),
        from: files.map((f) => `${f.path} (${f.what})`).join(' and '),
      }
    : undefined;
  const set = net.httpsProxy ?? net.httpProxy;
  // For --debug: a proxy the environment names but this service does not go through, and why.
  const direct =
    set && !proxy && creds.source !== 'sandbox'
      ? `${new URL(creds.baseUrl).origin} directly, not through ${set.name}: ` +
        (creds.baseUrl.startsWith('https:')
          ? `${net.noProxy?.name ?? 'NO_PROXY'} names it`
          : 'plain http is loopback only')
      : undefined;
  return { proxy, ca, direct };
}
