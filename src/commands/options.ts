import { Option } from '@commander-js/extra-typings';
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { LIMITS } from '../contract/limits';
import { collect, pick } from './declare';

// Options that several commands declare alike; each call makes a new one (an option belongs to one command).

export const customerOption = () => new Option('--customer <id>', 'customer (cust_…)').makeOptionMandatory();

export const noteOption = (help = 'note to attach (repeatable)') =>
  new Option('--note <key=value>', help).argParser(collect);

/** The named options as parsed, and the notes `noteOption` collected (none when it was not given). */
export const withNotes = <O extends OptionValues & { note?: string[] }, K extends keyof O & string>(
  opts: O,
  ...names: K[]
) => ({
  ...pick(opts, ...names),
  notes: opts.note ?? [],
});

export const receiptOption = () =>
  new Option('--receipt <receipt>', `your reference, at most ${LIMITS.receiptChars} characters`);

/**
 * A list of the service's records: the window of one page (--from, --to, --count, --skip), the list's own
 * filters, then walking every page (--all, --limit), in that order in its help.
 */
export function listOptions<G extends OptionValues, F extends OptionValues>(
  cmd: Command<[], NoOptions, G>,
  count: string,
  filters: (window: Window<G>) => Command<[], F, G>,
) {
  return filters(windowOptions(cmd, count))
    .option('--all', `walk every page (${LIMITS.count} at a time)`)
    .option('--limit <n>', 'with --all or --out, stop after N items');
}

const windowOptions = <G extends OptionValues>(cmd: Command<[], NoOptions, G>, count: string) =>
  cmd
    .option('--from <time>', 'created at or after: Unix seconds, ISO date/date-time, 7d, 24h, today, yesterday')
    .option('--to <time>', 'created at or before (a bare date includes the whole day)')
    .option('--count <n>', count)
    .option('--skip <n>', 'items to skip');

/** A command with no options of its own yet, as commander's types write it. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type NoOptions = {};

/** The window of one page, as `listOptions` declares it: the list's filters are declared after it. */
type Window<G extends OptionValues> = ReturnType<typeof windowOptions<G>>;

/** Options every command that takes many payments shares (see src/bulk). */
export const bulkOptions = <A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
) =>
  cmd
    .option('--input <file>', 'many payments: a file (or - for stdin) of ids, CSV with a payment_id header, or NDJSON')
    .option('--concurrency <n>', 'requests in flight at once for many payments (default 8)')
    .option(
      '--journal <file>',
      'journal of a bulk run; the same file resumes it ' +
        '(default: named after the operation, profile and input, under the state directory)',
    )
    .option(
      '--new-run',
      'start a fresh journal even if this same input ran before: moves the money AGAIN (a terminal asks for the total to be typed; without one, pass --yes)',
    )
    .option('--recheck', "read back the payments a journal's run sent without learning the outcome; sends nothing")
    .option('--skip-invalid', 'skip and list bad input rows instead of refusing the whole run')
    .option('--confirm-live <profile>', 'without a terminal, confirms a bulk run on a live profile (with --yes)');
