import type { IncomingMessage, ServerResponse } from 'node:http';
import { SandboxError, errorBody } from './errors';

const MAX_BODY = 1024 * 1024;

export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (res.destroyed) return;
  const text = JSON.stringify(body);
  // A request refused before its body was read (too large) leaves unread bytes on the connection:
  // close it after answering, or the next request on it would be read from the middle of that body.
  const close = res.req.complete ? {} : { connection: 'close' };
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...close,
    ...headers,
  });
  res.end(text);
}

export const sendError = (res: ServerResponse, err: SandboxError, headers?: Record<string, string>) =>
  send(res, err.status, errorBody(err), headers);

export const serverError = (message = 'The server encountered an error') =>
  new SandboxError(message, 500, undefined, 'SERVER_ERROR');

/**
 * The body as text. One larger than 1 MiB is read to its end but not kept, and then refused, so the
 * client gets its 400 instead of a broken pipe; past 16 MiB the connection is simply cut.
 */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 16 * MAX_BODY) req.destroy();
      else if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () =>
      size > MAX_BODY
        ? reject(new SandboxError('The request body is larger than 1 MiB'))
        : resolve(Buffer.concat(chunks).toString('utf8')),
    );
    req.on('error', reject);
    // Cut off (too large, or the client went away): settle, so the request's handler does not wait forever.
    req.on('close', () => {
      if (!req.complete) reject(new SandboxError('The request body was not received in full'));
    });
  });
}

/** A JSON body (`{}` when empty); with `objectOnly`, anything but an object is refused. */
export function parseJson(raw: string, objectOnly: boolean): unknown {
  if (!raw.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new SandboxError('The request body is not valid JSON');
  }
  if (objectOnly && (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)))
    throw new SandboxError('The request body must be a JSON object');
  return parsed;
}

/**
 * The request's URL. URL parsing resolves `..` (also as %2e%2e), which would turn
 * /payments/X/../../orders into another endpoint: a path holding dot segments is refused as it arrives.
 */
export function requestUrl(req: IncomingMessage): URL {
  const rawPath = (req.url ?? '/').split('?')[0]!;
  if (rawPath.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment)))
    throw new SandboxError('The requested URL is malformed: it holds . or .. segments');
  try {
    return new URL(req.url ?? '/', 'http://sandbox');
  } catch {
    throw new SandboxError('The requested URL is malformed');
  }
}
