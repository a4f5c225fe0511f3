import { timingSafeEqual } from 'node:crypto';
import { encodeLikeService, signWebhook } from '../../contract/webhooks/signature';

/** What `webhooks verify` found: a match, or the likely reason there is none. */
export type Diagnosis = { ok: true; how: string } | { ok: false; cause: string };

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Where two texts first differ: offset, line and column, and a few characters of each from there. */
export function firstDifference(received: string, canonical: string): string {
  let i = 0;
  while (i < received.length && received[i] === canonical[i]) i++;
  const before = received.slice(0, i);
  const line = before.split('\n').length;
  const column = i - before.lastIndexOf('\n');
  const show = (s: string) => JSON.stringify(s.slice(i, i + 12));
  return `byte ${i} (line ${line}, column ${column}): received ${show(received)}, the service sends ${show(canonical)}`;
}

function base64Digest(signature: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(signature)) return undefined;
  const raw = Buffer.from(signature.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return raw.length === 32 ? raw : undefined;
}

/**
 * Checks `signature` against the raw `body` and the webhook `secret`, and when it does not match,
 * finds the likeliest reason, trying each the way it happens: a base64 signature, a trailing newline
 * added to the body, a body re-serialized from parsed JSON (the service's own encoding of the same
 * JSON matches), the key secret used where the webhook secret belongs; else the secret is wrong.
 */
export function diagnose(body: Buffer, signature: string, secret: string, keySecret?: string): Diagnosis {
  const sig = signature.trim();
  const hex = signWebhook(body, secret);
  if (same(sig.toLowerCase(), hex))
    return { ok: true, how: 'the signature matches the raw body and the webhook secret' };

  const b64 = base64Digest(sig);
  if (b64 && b64.equals(Buffer.from(hex, 'hex')))
    return {
      ok: false,
      cause: 'the signature is base64 where the service sends hex: compare hex digests (digest("hex")), 64 characters',
    };
  if (!/^[0-9a-fA-F]{64}$/.test(sig))
    return { ok: false, cause: 'the signature is not 64 hex characters: X-Razorpay-Signature is a hex HMAC-SHA256' };

  const text = body.toString('utf8');
  const trimmed = text.replace(/[\r\n]+$/, '');
  if (trimmed !== text && same(sig, signWebhook(trimmed, secret)))
    return {
      ok: false,
      cause: `the body has a trailing newline the service did not send (${text.length - trimmed.length} byte(s) at the end): verify the bytes exactly as received`,
    };

  let canonical: string | undefined;
  try {
    canonical = encodeLikeService(JSON.parse(text));
  } catch {
    // not JSON: only the byte-level causes apply
  }
  if (canonical !== undefined && canonical !== text && same(sig, signWebhook(canonical, secret)))
    return {
      ok: false,
      cause:
        'the body was re-serialized (JSON.stringify of the parsed body?): the service encodes the same JSON ' +
        `differently and its bytes match the signature; they first differ at ${firstDifference(text, canonical)}. ` +
        'Verify the raw request body',
    };

  if (keySecret) {
    for (const candidate of new Set([text, trimmed, canonical ?? text]))
      if (same(sig, signWebhook(candidate, keySecret)))
        return {
          ok: false,
          cause:
            'signed with the key secret (API key) instead of the webhook secret: sign and verify with the webhook secret',
        };
    if (secret === keySecret)
      return {
        ok: false,
        cause:
          "the secret given is the profile's key secret: webhooks are signed with the webhook secret, not the API key's",
      };
  }
  return {
    ok: false,
    cause:
      'wrong secret: the signature matches these bytes under no secret payctl knows (not the webhook secret given' +
      `${keySecret ? ', not the key secret' : ''}), nor a re-serialized or trimmed body`,
  };
}
