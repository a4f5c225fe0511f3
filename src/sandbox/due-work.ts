import type { DueRecords, Store } from './store';
import { EXPIRING, refundExpiredAuthorizations } from './refunds';
import { CHARGES_DUE, chargeDueSubscriptions } from './subscription-cycles';
import { SETTLING_PAYOUTS, settlePayouts } from './payouts';
import { SETTLING, settleDue } from './settlements';

/** Every kind of record the jobs below take up when its `due_at` comes, from the jobs' own declarations. */
const DUE: readonly DueRecords[] = [EXPIRING, ...CHARGES_DUE, SETTLING_PAYOUTS, ...SETTLING];

/**
 * Everything that falls due by sandbox time `now`, done before a request is served: auto-refunds of
 * authorizations past the capture window, subscription cycles, payout outcomes, settlements. Nothing new can fall
 * due within the same sandbox second unless something was written, so a run of reads in one second
 * does this once; and one statement asks whether anything is due at all before any job looks, as after
 * most writes nothing is.
 */
export function dueWork(store: Store, captureWindowSeconds: number): (now: number) => void {
  let doneFor = '';
  return (now) => {
    const before = `${now}:${store.version}`;
    if (doneFor === before) return;
    if (!store.anyDue(DUE, now)) {
      doneFor = before;
      return;
    }
    refundExpiredAuthorizations(store, now);
    chargeDueSubscriptions(store, now, captureWindowSeconds);
    settlePayouts(store, now);
    settleDue(store, now);
    doneFor = `${now}:${store.version}`;
  };
}
