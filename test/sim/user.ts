import type { BulkRow } from '../../src/bulk/runner';
import { saysNothingSent } from './oracle';
import type { Oracle } from './oracle';
import type { Outcome } from './process';

/** What a bulk row tells its user, as a claim the oracle checks at the moment the row is shown. */
export function claimRow(oracle: Oracle, who: string, row: BulkRow, proc: number) {
  const reason = row.reason ?? undefined;
  if (row.result === 'done' || row.result === 'skipped')
    return oracle.claim(who, row.payment_id, 'done', { refundId: row.refund_id ?? undefined, proc });
  if (row.result === 'failed') {
    oracle.claim(who, row.payment_id, 'failed', { proc, reason });
    if (saysNothingSent(reason)) oracle.claim(who, row.payment_id, 'nothing_sent', { proc });
    return;
  }
  if (row.result === 'unknown' && reason && /\bnot applied\b/i.test(reason))
    oracle.claim(who, row.payment_id, 'not_applied', { proc });
}

/** What one refund's exit tells its user. */
export function claimSingle(oracle: Oracle, who: string, id: string, o: Outcome, proc: number) {
  if (o.exit === undefined) return;
  const text = [o.message, ...o.hints].join(' ');
  if (o.exit === 0) {
    const refundId = o.data?.entity === 'refund' && typeof o.data.id === 'string' ? o.data.id : undefined;
    return oracle.claim(who, id, 'done', { refundId, proc });
  }
  if (o.exit === 5 || o.exit === 4) oracle.claim(who, id, 'not_applied', { proc });
  // Exit 1 is a refusal only when the service's own error object said so (kind api).
  if (o.kind === 'api') oracle.claim(who, id, 'failed', { proc, reason: o.message });
  if (saysNothingSent(text)) oracle.claim(who, id, 'nothing_sent', { proc });
}

const KEY = /--idempotency-key[ =]['"]?([A-Za-z0-9_.:-]+)/;

/**
 * Whether a person would run the refund again, and with which key: when told it is safe (exit 5, or
 * rate limited), or told to rerun with the printed key. A lost outcome without a key is checked by hand.
 */
export function rerunOf(o: Outcome, key: string | undefined): { key: string | undefined } | undefined {
  if (o.exit === undefined || o.exit === 0) return undefined;
  const printed = KEY.exec([o.message, ...o.hints].join(' '))?.[1] ?? key;
  if (o.exit === 5 || o.exit === 4) return { key: printed };
  if (o.exit === 6 && printed) return { key: printed };
  return undefined;
}
