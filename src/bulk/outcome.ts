import type { BulkItem } from './input';
import type { ItemState, SentRecord } from './journal';

/** `skipped`: nothing needed doing (done in an earlier run, or already captured at the service). */
export type RowResult = 'done' | 'skipped' | 'failed' | 'unknown';

export interface ItemOutcome {
  result: RowResult;
  status?: string;
  amount?: number;
  currency?: string;
  refund_id?: string;
  reason?: string;
  verdict?: string;
}

/** Writes the journal's "sent" record; called right before the first write request goes out. */
type MarkSent = (amount?: number, currency?: string, amountRefunded?: number) => void;

/** Where one payment stands: its journal state, its last `sent` record, and how to record a send. */
export interface ItemAt {
  state: ItemState;
  previous?: SentRecord;
  mark: MarkSent;
  wasSent(): boolean;
}

/** What a bulk run does with one item (capture it, refund it), given where it stands. */
export type Perform = (item: BulkItem, at: ItemAt) => Promise<ItemOutcome>;
