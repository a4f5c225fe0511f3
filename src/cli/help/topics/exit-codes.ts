import { EXIT_CODE_TABLE } from '../../exit-codes';
import { example, heading, table, text } from '../topic';
import type { Topic } from '../topic';

export const exitCodes: Topic = {
  name: 'exit-codes',
  title: 'Exit codes',
  page: 'docs/exit-codes.md',
  blocks: [
    text(
      'Every payctl command ends with one of these exit statuses. A script can tell a refusal (1: nothing',
      'was applied) from an unknown outcome (6: check before trying again) from a usage error (2: nothing was sent).',
    ),
    table(
      ['code', 'meaning'],
      EXIT_CODE_TABLE.map((row) => [String(row.code), row.meaning]),
    ),
    heading('Errors'),
    text(
      'Errors are one line on stderr. A service refusal names the operation and the id in your terms, then',
      "the service's own words and its `code`, `field` and `reason`, e.g. `payctl: no payment",
      'pay_29QQoUBi66xm2f on this account; the service says: The id provided does not exist',
      '(BAD_REQUEST_ERROR)`. A refused connection to this machine (a stopped sandbox) is not retried: it fails',
      'at once (exit 5) asking whether `payctl sandbox start` is running. With `-o json` the error is also',
      'written to stderr as a JSON object. `--debug` adds an HTTP trace (credentials redacted) and stack traces.',
    ),
    heading('In scripts'),
    text(
      'Exit 6 and 7 are the ones to stop on: a write may have been applied. The message of exit 6 gives the',
      'exact command that shows what happened; a bulk run that exits 7 keeps its journal, and running it again',
      'with the same input resumes it rather than moving the money again.',
    ),
    example(
      'payctl payments capture --input capture.csv --yes -o ndjson > captured.ndjson',
      'payctl payments capture --input capture.csv --yes -o ndjson > captured.ndjson    # again: resumes, sends nothing twice',
    ),
  ],
};
