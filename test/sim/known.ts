import type { Violation } from './oracle';
import type { ScenarioPlan } from './plan';

/**
 * Findings the simulation made that are reported rather than failed: each is a limit docs/money-safety.md
 * states (what one machine cannot know of another's request on its way, or of a request the service
 * applies long after its deadline). A failing seed whose every violation matches one of these is listed
 * (with its count) rather than failed; any other violation fails the test. Each entry is as narrow as
 * the finding: delete it if the limit is lifted, and the simulation holds the line from then on.
 */
interface Known {
  id: string;
  what: string;
  matches: (v: Violation, plan: ScenarioPlan) => boolean;
}

export const KNOWN: Known[] = [
  {
    id: 'resend-while-on-its-way',
    what:
      'a service that ignores X-Refund-Idempotency but lists refunds: a send with the same key whose look finds no ' +
      'refund with the key yet makes a second refund when the first request is applied after it: on two machines ' +
      "running the same input at once (one cannot know of the other's request on its way), or on one machine when " +
      'the service applies a request more than twice its deadline after it was sent (beyond the quiet period a ' +
      'resend waits out; the limits docs/money-safety.md states); each such double is named duplicate, with both ' +
      "refund ids, by the run's next resume or recheck (invariant double-not-named)",
    matches: (v, plan) => v.invariant === 'refunded-twice' && !plan.idempotency && plan.refundList,
  },
  {
    id: 'bare-resend',
    what:
      'a service with neither the header nor the list: --retry-unknown resends onto a payment whose ' +
      'amount_refunded has not moved since the earlier send, after the quiet period, and that earlier request, ' +
      'applied more than twice its deadline after it was sent, lands after it (the limit above, with no list to ' +
      'look in; the limit docs/money-safety.md states)',
    // Only where a resend was asked for: a plain resume that sends again is not this finding.
    matches: (v, plan) =>
      v.invariant === 'refunded-twice' &&
      !plan.idempotency &&
      !plan.refundList &&
      /sent by: .*(--retry-unknown|--idempotency-key)/.test(v.detail),
  },
  {
    id: 'failed-beside-a-twin-on-its-way',
    what:
      'a service that ignores X-Refund-Idempotency but lists refunds, the same input on two machines at once: the ' +
      "service's refusal of one machine's send (more than can be refunded, after another operator's refund) makes " +
      "its row failed while the other machine's send of the row, planned later for what remained, lands after " +
      "(seed 355777243). Neither machine can know of the other's request on its way (the limit " +
      "docs/money-safety.md states); the first machine's next resume or recheck finds the refund by the key and " +
      'reports the row done',
    matches: (v, plan) =>
      v.invariant === 'failed-while-in-flight' && !plan.idempotency && plan.refundList && plan.twoMachines,
  },
];

/** The known finding a violation is, if any. */
export const knownOf = (v: Violation, plan: ScenarioPlan) => KNOWN.find((k) => k.matches(v, plan));
