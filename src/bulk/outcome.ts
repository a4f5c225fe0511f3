import type { BulkItem } from './input';
import type { ItemState, SentRecord } from './journal';

/**
 * `skipped`: nothing needed doing (done in an earlier run, or already captured at the service).
 * `duplicate`: more than one refund carries the row's key (the money moved more than once).
 */
export type RowResult = 'done' | 'skipped' | 'failed' | 'unknown' | 'duplicate';

export interface ItemOutcome {
  result: RowResult;
  status?: string;
  amount?: number;
  currency?: string;
  refund_id?: string;
  reason?: string;
  verdict?: string;
}

/** What a `sent` record says: the amount and currency sent, the amount_refunded read before, the refund's key. */
export interface Sending {
  amount?: number;
  currency?: string;
  amountRefunded?: number;
  key?: string;
  /** The attempt's deadline: with the record's time, when this request can no longer arrive. */
  deadlineMs?: number;
}

/**
 * Writes the journal's "sent" record and resolves once it is on the disk; called right before the
 * first write request goes out, which must not go if this rejects (the journal could not be written).
 */
type MarkSent = (sending: Sending) => Promise<void>;

/** Where one payment stands: its journal state, its last `sent` record, and how to record a send. */
export interface ItemAt {
  state: ItemState;
  previous?: SentRecord;
  /** The refund's identity (X-Refund-Idempotency and the `payctl_key` note), derived from the run and the row. */
  key?: string;
  mark: MarkSent;
  wasSent(): boolean;
}

/** What a bulk run does with one item (capture it, refund it), given where it stands. */
export type Perform = (item: BulkItem, at: ItemAt) => Promise<ItemOutcome>;
