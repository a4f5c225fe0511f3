import { createHash } from 'node:crypto';
import { SandboxError } from './errors';
import type { RefundRecord } from './records';
import type { Store } from './store';

/**
 * `X-Refund-Idempotency` on POST /payments/:id/refund, as the real service documents it: a key of at
 * least 10 letters, digits, hyphens and underscores; the same key and body return the first refund;
 * a different body (or payment) under a used key is refused; a request arriving while one with its key
 * is still being processed is answered 409. Keys belong to the merchant's key id.
 */
export const IDEMPOTENCY_HEADER = 'x-refund-idempotency';

/** Who sent the request and the key it carries. */
export interface RefundKey {
  merchant: string;
  key: string;
}

const KEY_PATTERN = /^[A-Za-z0-9_-]{10,}$/;

/** The service's error objects for a key, without a business context (source, step and reason NA). */
function keyError(message: string, status = 400): SandboxError {
  const err = new SandboxError(message, status);
  err.na = true;
  return err;
}

/** The key a request carries, refused (400, nothing done) when it is not one the service takes. */
export function checkedKey(header: string | string[] | undefined, merchant: string): RefundKey | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header.join(', ') : header;
  if (!KEY_PATTERN.test(key)) {
    throw keyError(
      'The idempotency key must be at least 10 characters long and contain only alphabets, numbers, hyphens and underscores',
    );
  }
  return { merchant, key };
}

/** The identity of a request under a key: its payment and its body, whatever the order of its keys. */
export function requestDigest(paymentId: string, body: unknown): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return Object.fromEntries(
      entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, canonical(v)]),
    );
  };
  return createHash('sha256')
    .update(JSON.stringify([paymentId, canonical(body)]))
    .digest('hex');
}

/**
 * Keys of requests being processed in this server (held by --latency, or between arrival and their
 * transaction). What a key has made is kept in the database, in the refund's own transaction.
 */
export class InFlightKeys {
  private readonly held = new Set<string>();

  /** Marks the key as being processed until the returned release is called; 409 if it already is. */
  claim({ merchant, key }: RefundKey): () => void {
    const id = `${merchant}\0${key}`;
    if (this.held.has(id)) {
      throw keyError(
        'A request with the same idempotency key is still being processed. Retry after the first request completes',
        409,
      );
    }
    this.held.add(id);
    return () => this.held.delete(id);
  }
}

/**
 * Inside the refund's transaction: the refund an earlier request with this key and this body made
 * (to answer again), or undefined when the key is new. A used key with another body is refused.
 */
export function replayed(store: Store, refundKey: RefundKey, digest: string): RefundRecord | undefined {
  const used = store.refundKey(refundKey.merchant, refundKey.key);
  if (!used) return undefined;
  if (used.digest !== digest)
    throw keyError('Different request with the same idempotency key has already been processed.');
  const refund = store.get('refund', used.refund_id);
  if (!refund) throw new Error(`idempotency key ${refundKey.key} names a refund that is not stored`);
  return refund;
}
