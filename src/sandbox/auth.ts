import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { SandboxError } from './errors';

/** What a secret is compared by: an account's is made once, not on every request. */
export const secretDigest = (s: string) => createHash('sha256').update(s).digest();

/** The key id and secret a request's HTTP Basic header carries, if it carries one. */
export function credentialsOf(req: IncomingMessage): { keyId: string; keySecret: string } | undefined {
  const header = req.headers.authorization ?? '';
  if (!header.startsWith('Basic ')) return undefined;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { keyId: decoded.slice(0, colon), keySecret: decoded.slice(colon + 1) };
}

/** Compared in constant time (digests of equal length), so the answer's timing tells nothing of the secret. */
export const sameSecret = (given: string, expected: Buffer) => timingSafeEqual(secretDigest(given), expected);

/** The key id of a request whose credentials were accepted: what its idempotency keys belong to. */
export function keyIdOf(req: IncomingMessage): string {
  const decoded = Buffer.from((req.headers.authorization ?? '').slice(6), 'base64').toString('utf8');
  return decoded.slice(0, Math.max(0, decoded.indexOf(':')));
}

export const invalidKey = () => new SandboxError('The api key provided is invalid', 401);
export const CHALLENGE = { 'www-authenticate': 'Basic realm="sandbox"' };

/** A token bucket of `perSecond` requests (none: no limit); says whether this request is over the limit. */
export function rateLimiter(perSecond: number | undefined): () => boolean {
  if (!perSecond) return () => false;
  let tokens = perSecond;
  let refilled = Date.now();
  return () => {
    const now = Date.now();
    tokens = Math.min(perSecond, tokens + ((now - refilled) / 1000) * perSecond);
    refilled = now;
    if (tokens < 1) return true;
    tokens -= 1;
    return false;
  };
}
