import type { Violation } from './oracle';
import type { ScenarioPlan } from './plan';

/**
 * Findings the simulation made in src that are reported and not fixed yet. A failing seed whose every
 * violation matches one of these is listed (with its count) rather than failed; any other violation
 * fails the test. Each entry is as narrow as the finding: delete it once fixed, and the simulation
 * holds the line from then on.
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
      'a service that ignores X-Refund-Idempotency but lists refunds: a resend with the same key (a resume, ' +
      'or a rerun with the printed --idempotency-key, whose look finds no refund with the key yet) makes a ' +
      "second refund when the first request lands after the look (README's documented limit)",
    matches: (v, plan) => v.invariant === 'refunded-twice' && !plan.idempotency && plan.refundList,
  },
  {
    id: 'bare-resend',
    what:
      'a service with neither the header nor the list: a rerun with the printed --idempotency-key, or ' +
      '--retry-unknown on a resume, sends again without looking at amount_refunded, also long after the ' +
      'first refund landed (not in README: its fallback judges only the send just made)',
    // Only where a resend was asked for: a plain resume that sends again is not this finding.
    matches: (v, plan) =>
      v.invariant === 'refunded-twice' &&
      !plan.idempotency &&
      !plan.refundList &&
      /sent by: .*(--retry-unknown|--idempotency-key)/.test(v.detail),
  },
  {
    id: 'resumed-row-failed',
    what:
      'a resumed row (or the same row on a second machine) is checked against what remains now, which ' +
      'payctl\'s own earlier refund reduced ("nothing left", "more than remains", or the service refusing ' +
      'the resend as more than captured), and is reported failed instead of done',
    matches: (v) =>
      v.invariant === 'failed-but-applied' &&
      /nothing left to refund|more than the \d+ that remains|greater than amount captured/.test(v.detail),
  },
  {
    id: 'lookup-failed-row',
    what:
      'a row whose read before sending failed (a proxy answered the list or the payment) is reported ' +
      'failed, "nothing sent", while its refund exists, made by the other machine or by an earlier run ' +
      'whose row had been marked failed (often after resumed-row-failed)',
    matches: (v) =>
      v.invariant === 'failed-but-applied' && /could not look for an earlier refund|nothing sent: /.test(v.detail),
  },
  {
    id: 'capture-readback-unchecked',
    what:
      "a capture whose answer was lost is read back with client/capture.ts's own getPayment, without " +
      "contract/rules' paymentProblem: another payment's record (a hostile answer) reads as captured",
    matches: (v, plan) => v.invariant === 'done-but-not-captured' && plan.kind === 'bulk_capture',
  },
];

/** The known finding a violation is, if any. */
export const knownOf = (v: Violation, plan: ScenarioPlan) => KNOWN.find((k) => k.matches(v, plan));
