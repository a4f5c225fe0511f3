import { createHash, randomBytes } from 'node:crypto';
import type { BulkItem } from './input';

/** A refund key: what the service accepts (at least 10 characters) in a charset safe in headers, notes and shells. */
export const KEY_PATTERN = /^[A-Za-z0-9_-]{10,64}$/;

/**
 * A bulk row's refund key: the run's identity (by default the input's digest, so the same input on
 * two machines gives the same keys; --new-run gives a new identity) and the row itself.
 */
export function rowKey(runId: string, item: Pick<BulkItem, 'line' | 'id' | 'amount'>): string {
  const h = createHash('sha256').update(`${runId}\n${item.line}\n${item.id}\n${item.amount ?? 'rest'}\n`);
  return `pcb_${h.digest('base64url').slice(0, 32)}`;
}

/** A single refund's key, new for each invocation (the user may pass one instead, to rerun). */
export const singleKey = (): string => `pcs_${randomBytes(15).toString('base64url')}`;
