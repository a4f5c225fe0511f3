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
const RERUN = /rerun exactly `payctl ([^`]+)`/;

/** A rerun as the person runs it: the printed command's payment, amount and key, word for word. */
export interface Rerun {
  key: string | undefined;
  /** From the printed command, when one was printed: what the rerun sends. */
  id?: string;
  amount?: number;
}

/** Pure: the printed `payctl payments refund ID --amount N --idempotency-key K` as the values it runs with. */
function printedRerun(text: string): Rerun | undefined {
  const words = RERUN.exec(text)?.[1]?.split(' ');
  if (!words) return undefined;
  const at = words.indexOf('refund');
  const after = (flag: string) => (words.includes(flag) ? words[words.indexOf(flag) + 1] : undefined);
  const amount = after('--amount');
  return {
    id: words[at + 1],
    amount: amount === undefined ? undefined : Number(amount),
    key: after('--idempotency-key'),
  };
}

/**
 * Whether a person would run the refund again, and how: when told it is safe (exit 5, or rate limited),
 * or told to rerun exactly the printed command (run as printed). A lost outcome without a key is
 * checked by hand.
 */
export function rerunOf(o: Outcome, key: string | undefined): Rerun | undefined {
  if (o.exit === undefined || o.exit === 0) return undefined;
  const text = [o.message, ...o.hints].join(' ');
  const command = printedRerun(text);
  if (o.exit === 6 && command?.key) return command;
  const printed = KEY.exec(text)?.[1] ?? key;
  if (o.exit === 5 || o.exit === 4) return { key: printed };
  if (o.exit === 6 && printed) return { key: printed };
  return undefined;
}
