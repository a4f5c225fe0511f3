import { createHmac } from 'node:crypto';

/**
 * The bytes of a webhook body as the real service writes them: compact JSON with `/` escaped as `\/`
 * and every character outside ASCII as a `\u` escape (PHP's json_encode defaults). A handler that
 * verifies `JSON.stringify(parsed body)` instead of the raw bytes gets other bytes, and a failed check.
 * Outside strings JSON has neither `/` nor non-ASCII characters, so escaping the whole text is exact.
 */
export function serviceEncoding(json: string): string {
  return json.replace(/[/\u0080-\uffff]/g, (ch) =>
    ch === '/' ? '\\/' : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A value as the service's webhook body bytes. */
export const encodeLikeService = (value: unknown): string => serviceEncoding(JSON.stringify(value));

/** X-Razorpay-Signature: hex HMAC-SHA256 of the raw body with the webhook secret. */
export const signWebhook = (body: string | Uint8Array, secret: string): string =>
  createHmac('sha256', secret).update(body).digest('hex');

/** Whether an event name matches one of the globs of `--events` (`payment.*`, `refund.processed`, `*`). */
export function eventMatches(globs: readonly string[], name: string): boolean {
  if (globs.length === 0) return true;
  return globs.some((glob) => {
    const pattern = glob
      .trim()
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*');
    return new RegExp(`^${pattern}$`).test(name);
  });
}

/** The globs of an `--events` value: comma-separated, blanks dropped. */
export const eventGlobs = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean);
