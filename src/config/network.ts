import { readFileSync } from 'node:fs';
import { BlockList, isIP } from 'node:net';
import { UsageError } from '../contract/errors';

/** One proxy variable as found in the environment: its name (for messages) and its value. */
export interface ProxyVariable {
  name: string;
  value: string;
}

/** The network part of the settings, read once from the environment by src/cli. */
export interface NetworkSettings {
  httpsProxy?: ProxyVariable;
  httpProxy?: ProxyVariable;
  noProxy?: ProxyVariable;
  /** PAYCTL_CA_FILE: CAs trusted for every profile, in addition to the system's (and the profile's own). */
  caFile?: string;
}

/** The proxy a request goes through: its URL (credentials included), the same redacted, and why it was chosen. */
export interface ChosenProxy {
  url: string;
  shown: string;
  from: string;
}

/** A proxy URL as it may be shown: whatever userinfo it carries becomes `***`. */
export function redactProxy(url: URL): string {
  const copy = new URL(url.href);
  if (copy.username || copy.password) {
    copy.username = '***';
    copy.password = '';
  }
  return copy.href.replace(/\/$/, '');
}

function parseProxy(variable: ProxyVariable): URL {
  const raw = variable.value.trim();
  let url: URL;
  try {
    // The usual convention: a bare host:port is an http:// proxy.
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`);
  } catch {
    throw new UsageError(`${variable.name} is not a proxy URL (http://host:port): nothing was sent`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(
      `${variable.name} must be an http:// or https:// proxy (got ${url.protocol}): nothing was sent`,
    );
  return url;
}

/** `host`, `host:port`, `[v6]:port`, a bare IPv6 address (no port), or a CIDR block. */
function splitPort(raw: string): { entry: string; entryPort?: string } {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(raw);
  if (v6) return { entry: v6[1]!, entryPort: v6[2] };
  const colons = raw.split(':').length - 1;
  const hostPort = /^(.*):(\d+)$/.exec(raw);
  if (colons === 1 && hostPort) return { entry: hostPort[1]!, entryPort: hostPort[2] };
  return { entry: raw };
}

function inBlock(host: string, cidr: string): boolean {
  const [net = '', bits = ''] = cidr.split('/');
  const family = isIP(net);
  if (!family || isIP(host) !== family || !/^\d+$/.test(bits)) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const block = new BlockList();
  try {
    block.addSubnet(net, Number(bits), type);
  } catch {
    return false;
  }
  return block.check(host, type);
}

/**
 * NO_PROXY as curl and undici read it: entries split by commas or spaces; `*` matches every host; a name
 * matches itself and its subdomains (a leading `.` or `*.` changes nothing); `host:port` only that port;
 * an IP address or CIDR block matches addresses in it.
 */
export function bypassesProxy(target: URL, noProxy: string | undefined): boolean {
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  for (const raw of (noProxy ?? '').toLowerCase().split(/[\s,]+/)) {
    if (raw === '*') return true;
    const { entry, entryPort } = splitPort(raw);
    if (!entry || (entryPort && entryPort !== port)) continue;
    if (entry.includes('/')) {
      if (inBlock(host, entry)) return true;
      continue;
    }
    const name = entry.replace(/^\*?\./, '');
    if (name && (host === name || host.endsWith(`.${name}`))) return true;
  }
  return false;
}

/**
 * The proxy for a base URL: HTTPS_PROXY, else HTTP_PROXY (as undici's EnvHttpProxyAgent reads them),
 * unless NO_PROXY names the host. A plain-http base URL is allowed only on loopback (a local sandbox),
 * which no proxy could reach: it is never proxied.
 */
export function proxyFor(baseUrl: string, net: NetworkSettings): ChosenProxy | undefined {
  const target = new URL(baseUrl);
  const variable = net.httpsProxy ?? net.httpProxy;
  if (target.protocol !== 'https:' || !variable || bypassesProxy(target, net.noProxy?.value)) return undefined;
  const url = parseProxy(variable);
  return { url: url.href, shown: redactProxy(url), from: variable.name };
}

/**
 * A CA file's certificates as PEM text, checked: a file that cannot be read or holds no certificate is
 * one usage line naming it (exit 2, nothing sent), never a TLS library's complaint later.
 */
export function readCaFile(path: string, what: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new UsageError(`cannot read the CA file ${path} (${what}): ${code}; nothing was sent`);
  }
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (!blocks.length)
    throw new UsageError(`the CA file ${path} (${what}) holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  for (const block of blocks) {
    try {
      new (process.getBuiltinModule('node:crypto').X509Certificate)(block);
    } catch (err) {
      throw new UsageError(
        `the CA file ${path} (${what}) holds a certificate that cannot be read: ${(err as Error).message}`,
      );
    }
  }
  return blocks.join('\n');
}
