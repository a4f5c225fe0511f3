import type { Command } from '@commander-js/extra-typings';
import type { Bind } from '../bind';
import { collect, examples, lazy } from '../declare';
import type { CommandGroup } from '../declare';

const run = lazy(() => import('./handlers'));

/** `payctl api`: one command with arguments, always declared whole. */
export const api: CommandGroup = { name: 'api', declare: declareApi };

function declareApi(program: Command, bind: Bind) {
  program
    .command('api')
    .description("call any endpoint with payctl's profiles, retries, confirmations and output, like `gh api`")
    .argument(
      '<method-or-path>',
      'GET, POST or PATCH, then PATH; or just PATH (GET, or POST when -F/-f/--input give a body)',
    )
    .argument(
      '[path]',
      "path below the profile's base URL, which adds its version prefix (/payments/pay_…); ?query allowed",
    )
    .option(
      '-F, --field <key=value>',
      'typed field: numbers, true, false and null become JSON; a[b]=v nests, a[]=v appends; ' +
        'query string of a GET (repeatable)',
      collect,
    )
    .option('-f, --raw-field <key=value>', 'string field, never converted (repeatable)', collect)
    .option('--input <file>', 'request body: a JSON file, or - for stdin (-F/-f then go to the query string)')
    .option('--all', 'GET a list: walk every page with count/skip and print the items')
    .option('--limit <n>', 'with --all, stop after N items')
    .addHelpText(
      'after',
      '\nA POST or PATCH confirms on a terminal (--yes without one). If its answer is lost it is never resent: payctl\n' +
        'exits 6 with the command that shows whether it was applied, e.g. `payctl payments get pay_…`.',
    )
    .addHelpText(
      'after',
      examples(
        'payctl api GET /orders/order_DBJOWzybf0sJbb/payments         # what orders payments reads',
        'payctl api GET /payments --all -F from=1714501800 -o csv --out payments.csv',
        'payctl api POST /payments/pay_29QQoUBi66xm2f/refund -F amount=20000 -F notes[reason]=damaged',
        'payctl api GET /plans -F count=5                             # plans (real service)',
      ),
    )
    .action(
      bind(run('callApi'), ({ args: [methodOrPath = '', path], opts }) => ({
        methodOrPath,
        path,
        fields: opts.field ?? [],
        rawFields: opts.rawField ?? [],
        input: opts.input,
        all: Boolean(opts.all),
        limit: opts.limit,
      })),
    );
}
