import type { Result } from '../contract/values/result';
import { isIP } from 'node:net';

const isLoopback = (host: string) => {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
};

/**
 * A base URL must be https, except on loopback where the sandbox serves plain http.
 * Returns the normalised URL (no trailing slash) or an error sentence.
 */
export function checkBaseUrl(raw: string): Result<string> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, error: `base URL is not a valid URL: ${JSON.stringify(raw)}` };
  }
  if (url.username || url.password)
    return {
      ok: false,
      error: 'base URL must not carry credentials; use a profile or PAYCTL_KEY_ID/PAYCTL_KEY_SECRET',
    };
  if (url.search || url.hash) return { ok: false, error: 'base URL must not have a query or fragment' };
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    return {
      ok: false,
      error:
        `refusing plain http:// for ${url.hostname}: key secrets would travel unencrypted; ` +
        'use https:// (http is allowed only on loopback)',
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, error: `base URL must be https:// (got ${url.protocol})` };
  return { ok: true, value: url.toString().replace(/\/+$/, '') };
}
