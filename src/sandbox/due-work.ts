import type { Store } from './store';
import { refundExpiredAuthorizations } from './refunds';
import { chargeDueSubscriptions } from './subscription-cycles';
import { settlePayouts } from './payouts';
import { settleDue } from './settlements';

/**
 * Everything that falls due by sandbox time `now`, done before a request is served: auto-refunds of
 * authorizations past the capture window, subscription cycles, payout outcomes, settlements. Nothing new can fall
 * due within the same sandbox second unless something was written, so a run of reads in one second
 * does this once.
 */
export function dueWork(store: Store, captureWindowSeconds: number): (now: number) => void {
  let doneFor = '';
  return (now) => {
    if (doneFor === `${now}:${store.version}`) return;
    refundExpiredAuthorizations(store, now);
    chargeDueSubscriptions(store, now, captureWindowSeconds);
    settlePayouts(store, now);
    settleDue(store, now);
    doneFor = `${now}:${store.version}`;
  };
}
