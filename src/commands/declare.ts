import type { Command, OptionValues } from 'commander';
import type { Parsed } from './bind';
import type { PageOptions } from './listing';

/** Repeatable options (`--note a=1 --note b=2`) collect their values in order. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The "Examples:" section of a command's help. */
export const examples = (...lines: string[]) => `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}`;

/** For handlers that read commander's values as they are. */
export const parsed = (p: Parsed) => p;

/** Options every command that takes many payments shares (see src/bulk). */
export const bulkOptions = (cmd: Command) =>
  cmd
    .option('--input <file>', 'many payments: a file (or - for stdin) of ids, CSV with a payment_id header, or NDJSON')
    .option('--concurrency <n>', 'requests in flight at once for many payments (default 8)')
    .option(
      '--journal <file>',
      'journal of a bulk run; the same file resumes it ' +
        '(default: named after the operation, profile and input, under the state directory)',
    )
    .option('--new-run', 'start a fresh journal even if this same input ran before (moves the money again)')
    .option('--recheck', "read back the payments a journal's run sent without learning the outcome; sends nothing")
    .option('--skip-invalid', 'skip and list bad input rows instead of refusing the whole run')
    .option('--confirm-live <profile>', 'without a terminal, confirms a bulk run on a live profile (with --yes)');

/** What every list command's page options hold (--from, --to, --count, --skip, --all, --limit). */
export const pageOptions = (o: OptionValues): PageOptions => ({
  from: o.from,
  to: o.to,
  count: o.count,
  skip: o.skip,
  all: Boolean(o.all),
  limit: o.limit,
});
