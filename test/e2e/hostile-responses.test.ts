import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
// Through the binary: the hostile server runs in this process, and a client in the same event loop would
// race it for the --timeout these tests hold payctl to.
import { runProcess as run } from './harness';
import { serviceForFile } from './stand-in';

/** A server that answers like a broken proxy or a confused service, chosen by the payment id. */
const behaviours: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  html502: (_q, res) => {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end('<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>');
  },
  truncated: (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"id":"pay_AAAAAAAAAAAAAA","entity":"payment","amou');
  },
  wrongshape: (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'order_AAAAAAAAAAAAAA', entity: 'order', amount: 1 }));
  },
  empty: (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end();
  },
  huge: (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`[${'"x",'.repeat(2_500_000)}"x"]`);
  },
  hang: (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"id":');
  },
  reset: (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
    res.write('{"id":"pay_AAAAAAAAAAAAAA",');
    setTimeout(() => req.socket.destroy(), 20);
  },
  error200: (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist' } }));
  },
};

const env = serviceForFile(
  (req, res) => {
    const key = Object.keys(behaviours).find((k) => req.url?.includes(k)) ?? 'error200';
    req.resume();
    req.on('end', () => behaviours[key]!(req, res));
  },
  { PAYCTL_KEY_ID: 'rzp_test_hostile', PAYCTL_KEY_SECRET: 'hostile-secret-123', PAYCTL_MAX_RETRIES: '1' },
);

/** Only the answer that never ends is waited out; the others have all the time a loaded machine needs. */
const deadline = (kind: string) => (kind === 'hang' ? '0.5' : '30');
const get = (kind: string) =>
  run(['--timeout', deadline(kind), '-o', 'json', 'payments', 'get', `pay_${kind}`], { env });
const capture = (kind: string) =>
  run(
    [
      '--timeout',
      deadline(kind),
      '-o',
      'json',
      '--yes',
      'payments',
      'capture',
      `pay_${kind}`,
      '--amount',
      '100',
      '--currency',
      'INR',
    ],
    { env },
  );

function oneClearLine(stderr: string) {
  const first = stderr.trim().split('\n')[0] ?? '';
  expect(first).toMatch(/^payctl: /);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('hostile responses give a clear error and the right exit code', () => {
  it.each([
    ['html502', 5, /HTTP 502.*not JSON/],
    ['truncated', 1, /not JSON/],
    ['wrongshape', 1, /something else than expected/],
    ['empty', 1, /empty body/],
    ['huge', 1, /something else than expected/],
    ['hang', 5, /timed out|timeout|aborted/i],
    ['reset', 5, /could not get an answer/],
    ['error200', 1, /does not exist/],
  ])('GET answered with %s exits %i', async (kind, code, message) => {
    const res = await get(kind);
    expect(res.code, res.stderr).toBe(code);
    expect(res.stderr).toMatch(message);
    oneClearLine(res.stderr);
    expect(res.stdout).toBe('');
  });

  it.each([
    ['html502', 6],
    ['truncated', 6],
    ['hang', 6],
    ['reset', 6],
    ['error200', 6],
  ])('a capture answered with %s exits %i and never claims success', async (kind, code) => {
    const res = await capture(kind);
    expect(res.code, res.stderr).toBe(code);
    oneClearLine(res.stderr);
  });
});
