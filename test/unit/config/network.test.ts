import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/contract/errors';
import { bypassesProxy, proxyFor, readCaFile, redactProxy } from '../../../src/config/network';

const url = (u: string) => new URL(u);

describe('NO_PROXY', () => {
  it.each([
    ['payments.test', 'https://payments.test/v1', true],
    ['payments.test', 'https://api.payments.test/v1', true],
    ['.payments.test', 'https://api.payments.test/v1', true],
    ['*.payments.test', 'https://payments.test/v1', true],
    ['payments.test', 'https://notpayments.test/v1', false],
    ['other.example, payments.test', 'https://payments.test/v1', true],
    ['other.example payments.test', 'https://payments.test/v1', true],
    ['PAYMENTS.TEST', 'https://payments.test/v1', true],
    ['*', 'https://anything.example/v1', true],
    ['payments.test:443', 'https://payments.test/v1', true],
    ['payments.test:8443', 'https://payments.test/v1', false],
    ['payments.test:8443', 'https://payments.test:8443/v1', true],
    ['10.0.0.0/8', 'https://10.1.2.3/v1', true],
    ['10.0.0.0/8', 'https://11.1.2.3/v1', false],
    ['10.1.2.3', 'https://10.1.2.3/v1', true],
    ['::1', 'https://[::1]:8443/v1', true],
    ['[::1]:8443', 'https://[::1]:8443/v1', true],
    ['fd00::/8', 'https://[fd12::1]/v1', true],
    ['', 'https://payments.test/v1', false],
    [undefined, 'https://payments.test/v1', false],
  ])('%j for %s: bypass %s', (noProxy, target, bypass) => {
    expect(bypassesProxy(url(target), noProxy)).toBe(bypass);
  });
});

describe('which proxy', () => {
  const https = { name: 'HTTPS_PROXY', value: 'http://user:pw@proxy.corp:3128' };
  const http = { name: 'http_proxy', value: 'proxy.corp:8080' };

  it('HTTPS_PROXY for an https service, redacted for messages, naming the variable', () => {
    expect(proxyFor('https://api.example.com/v1', { httpsProxy: https, httpProxy: http })).toEqual({
      url: 'http://user:pw@proxy.corp:3128/',
      shown: 'http://***@proxy.corp:3128',
      from: 'HTTPS_PROXY',
    });
  });

  it('HTTP_PROXY when HTTPS_PROXY is unset (as undici reads them); a bare host:port is http://', () => {
    expect(proxyFor('https://api.example.com/v1', { httpProxy: http })).toMatchObject({
      shown: 'http://proxy.corp:8080',
      from: 'http_proxy',
    });
  });

  it('none for a loopback http sandbox, for NO_PROXY hosts, or with nothing set', () => {
    expect(proxyFor('http://127.0.0.1:4000/v1', { httpsProxy: https, httpProxy: http })).toBeUndefined();
    expect(
      proxyFor('https://api.example.com/v1', {
        httpsProxy: https,
        noProxy: { name: 'NO_PROXY', value: 'example.com' },
      }),
    ).toBeUndefined();
    expect(proxyFor('https://api.example.com/v1', {})).toBeUndefined();
  });

  it('a proxy variable that is not a proxy URL is a usage error naming it', () => {
    const bad = { name: 'HTTPS_PROXY', value: 'socks5://proxy.corp:1080' };
    expect(() => proxyFor('https://api.example.com/v1', { httpsProxy: bad })).toThrow(UsageError);
    expect(() => proxyFor('https://api.example.com/v1', { httpsProxy: bad })).toThrow(/HTTPS_PROXY must be/);
    expect(() =>
      proxyFor('https://api.example.com/v1', { httpsProxy: { name: 'https_proxy', value: 'http://[oops' } }),
    ).toThrow(/https_proxy is not a proxy URL/);
  });

  it('redaction hides a token given as the user name too', () => {
    expect(redactProxy(new URL('https://tok3n@proxy.corp:443'))).toBe('https://***@proxy.corp');
    expect(redactProxy(new URL('http://proxy.corp:3128'))).toBe('http://proxy.corp:3128');
  });
});

describe('a CA file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'payctl-ca-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('that is missing, or holds no certificate, is one usage line naming it', () => {
    expect(() => readCaFile(join(dir, 'nope.pem'), '--ca-file')).toThrow(/cannot read the CA file .*nope\.pem.*ENOENT/);
    writeFileSync(join(dir, 'key.pem'), '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n');
    expect(() => readCaFile(join(dir, 'key.pem'), 'PAYCTL_CA_FILE')).toThrow(/holds no PEM certificate/);
    writeFileSync(join(dir, 'junk.pem'), '-----BEGIN CERTIFICATE-----\nnot base64 der\n-----END CERTIFICATE-----\n');
    expect(() => readCaFile(join(dir, 'junk.pem'), '--ca-file')).toThrow(/cannot be read/);
  });
});
