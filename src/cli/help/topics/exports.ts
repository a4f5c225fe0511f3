import { example, heading, list, text } from '../topic';
import type { Topic } from '../topic';

export const exports: Topic = {
  name: 'exports',
  title: 'Exports',
  page: 'docs/reference/help-exports.md',
  blocks: [
    text(
      '`orders list`, `payments list`, `refunds list` and `wallet statement` walk pages and stream rows as',
      'pages arrive, so memory stays flat at any size. A list is complete, or says loudly that it is not.',
    ),
    list(
      'To a file or a pipe in a machine format (`-o csv`, `json`, `ndjson`; JSON is the default off a terminal) and with `--out`: every page, as if `--all` were given. Only `--limit N` (the first N rows, said on stderr) and `--count N`/`--skip N` (exactly that page) bound it.',
      'On a terminal (or `-o table`): one page; a full page ends with a line saying more may exist and how to get them.',
      'A whole list printed on stdout ends with its totals on stderr, per currency.',
    ),
    example(
      'payctl payments list --from 2024-11-01 --to 2024-11-30 --tz Asia/Kolkata -o csv > nov.csv',
      'payctl payments list --status authorized -o ndjson | head -n 3',
      'payctl payments list --limit 100 -o ndjson > newest-100.ndjson',
    ),
    heading('Files'),
    text(
      '`--out FILE` takes its format from the extension (`.csv`, `.json`, `.ndjson`/`.jsonl`, `.xlsx`; an `-o`',
      'that says otherwise is exit 2). The directory is checked before anything is sent; rows go to a 0600',
      'temporary file beside the target, renamed only when complete, so a full disk or Ctrl-C leaves no file.',
      'A symlink is followed; `/dev/stdout` and `/dev/null` are written through; a FIFO, another device or a',
      'directory is exit 2 before anything is sent (a FIFO nobody reads would never let payctl finish).',
    ),
    heading('Summary'),
    text(
      'stderr ends with the rows written, the range asked for and the range covered, the zone, and totals',
      'per currency with the minor unit named: `totals: amount INR ₹1,51,570.00 (15157000 paise)`. The xlsx',
      'Summary sheet holds the same.',
    ),
    heading('Statements'),
    text(
      'A wallet statement comes newest first, each `balance` the balance after that entry; `--oldest-first`',
      'gives ledger order. For each customer stderr and the Summary sheet give the opening balance, credits,',
      'debits and closing balance (opening + credits - debits = closing), also for a period with no entries,',
      'where opening and closing are the same and said so. Several customers (`A B C` or `--input FILE`) get',
      'a `customer_id` column; unknown ones are named before anything is written (`--skip-missing` exports',
      'the rest).',
    ),
    example(
      'payctl wallet statement cust_4xbQrmEoA5q1fP --from this-month --to this-month --tz Asia/Kolkata --out month.xlsx',
      'payctl wallet statement --input customers.txt --from last-month --to last-month --oldest-first --out april.csv',
    ),
    heading('A consistent snapshot'),
    text(
      'Without `--to` the walk pins the list to the newest row it first sees: rows created during an export',
      'neither appear nor push others out of it.',
    ),
    heading('A list the service changes under the walk'),
    text(
      'payctl trusts no page to be the last because it is short: a service may send fewer rows than asked. It',
      'asks again from where the short page ended and stops only when a page brings no row it has not seen.',
      'Each page starts on the last row of the page before, so payctl sees when the list moved between two',
      'pages. Rows created on top meanwhile are left for the next run. Anything else is a finding: a row on two',
      'pages or twice on one (another row came in above it, unread), or a page that does not start where the',
      'last ended (a row vanished, and the rows after it slid past unread). Then payctl stops with exit 1,',
      '"the service\'s list changed while it was read", naming the row; `--out` writes nothing and leaves a file',
      'already there as it was. Run it again; with a `--to` already past, the list cannot grow under it.',
    ),
  ],
};
