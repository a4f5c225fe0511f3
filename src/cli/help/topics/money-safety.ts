import { example, heading, list, text } from '../topic';
import type { Topic } from '../topic';

export const moneySafety: Topic = {
  name: 'money-safety',
  title: 'Money safety',
  page: 'docs/reference/help-money-safety.md',
  blocks: [
    text(
      'Every refund payctl sends carries a key of its own (the `X-Refund-Idempotency` header and a',
      '`payctl_key` note). If the service honours that key, no rerun, resume or second machine can refund',
      'twice. If it only lists refunds, a rerun finds the earlier refund and sends nothing. Anything payctl',
      'cannot prove is left unknown (exit 6, or `unknown` rows and exit 7) for a person to check, never',
      'called "not applied".',
    ),
    heading('One command'),
    list(
      "Only the service's own refusal counts as refused: exit 1 means a 4xx carrying its JSON error object, and the write was not applied. An HTML page from a proxy, a 5xx, a reset or a timeout leaves the outcome unknown: never resent blindly.",
      'Exit 6 means "may have been applied", and the message gives the exact command to check, e.g. `payctl payments get pay_…`.',
      'A capture resolves itself: after an unknown outcome payctl reads the payment; captured is success, still authorized means it was not applied and it is sent again.',
      "A refund is checked against what remains before it is sent. If its answer is lost, payctl looks for its key among the payment's refunds: found is done (exit 0); not found is exit 6 with the command to rerun with the same `--idempotency-key`, which sends only if no refund carries it.",
      'Money-moving commands confirm on a terminal with the human amount and the target (`[LIVE profile prod]`, `[sandbox]`), and need `--yes` without one; a live profile also needs its name typed (or `--confirm-live NAME`).',
    ),
    example(
      'payctl payments refund pay_29QQoUBi66xm2f --amount 20000 --yes',
      'payctl payments refund pay_29QQoUBi66xm2f --amount 20000 --idempotency-key pcs_Xq3ve9LbR2mT8kWz --yes',
    ),
    heading('Bulk runs'),
    list(
      'Every row is checked before anything is sent; bad rows are listed with their line numbers and the run exits 2 (`--skip-invalid` leaves them out).',
      'The checked rows are frozen into a journal (fsynced) before the confirmation, which states the total. The run executes the journal, never the input again.',
      'The same input run again resumes its journal instead of moving the money again: done payments are skipped, those in flight are looked for first.',
      'Ctrl-C stops taking new payments, waits for those in flight, records them and exits 130; the journal finishes the run.',
      '`--recheck --journal FILE` reads back every payment whose outcome was not learnt and sends nothing.',
    ),
    example(
      'payctl payments refund --input refunds.csv --journal refunds.journal --yes',
      'payctl payments refund --recheck --journal refunds.journal',
    ),
  ],
};
