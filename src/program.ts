import { Argument, Command, CommanderError, Option } from 'commander';
import { VERSION } from './version';
import { stripControl } from './output/sanitize';
import type { ErrorKind } from './contract/errors';
import type { IO } from './commands/context';
import type { CommandResult, Input } from './commands/result';
import type { GlobalFlags } from './runtime';
import { guardedStdout, Interrupt, OutputClosedError, WritesInFlight } from './signals';

/**
 * The one place that declares payctl's commands and options, and maps errors to exit codes.
 * Handlers are loaded with import() only when their command runs, so --version and --help stay light.
 */

type Handler = (input: Input, ctx: import('./commands/context').Context) => Promise<CommandResult>;
type Module = Record<string, Handler | unknown>;

// Handlers come in two modules: those that talk to the service, and those that work locally.
const service = () => import('./commands/service');
const local = () => import('./commands/local');
const handlers = {
  orders: service,
  payments: service,
  plans: service,
  subscriptions: service,
  wallet: service,
  api: service,
  profile: local,
  sandbox: local,
} satisfies Record<string, () => Promise<Record<string, unknown>>>;

export const EXIT_CODES: Record<ErrorKind, number> = {
  usage: 2,
  api: 1,
  failure: 1,
  auth: 3,
  rate_limit: 4,
  network: 5,
  unknown_outcome: 6,
  bulk_incomplete: 7,
  interrupted: 130,
};

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Options every command that takes many payments shares (see src/bulk). */
const bulkOptions = (cmd: Command) =>
  cmd
    .option('--input <file>', 'many payments: a file (or - for stdin) of ids, CSV with a payment_id header, or NDJSON')
    .option('--concurrency <n>', 'requests in flight at once for many payments (default 8)')
    .option(
      '--journal <file>',
      'journal of a bulk run; the same file resumes it (default: named after the operation, profile and input, under the state directory)',
    )
    .option('--new-run', 'start a fresh journal even if this same input ran before (moves the money again)')
    .option('--recheck', "read back the payments a journal's run sent without learning the outcome; sends nothing")
    .option('--skip-invalid', 'skip and list bad input rows instead of refusing the whole run')
    .option('--confirm-live <profile>', 'without a terminal, confirms a bulk run on a live profile (with --yes)');

/** The "Examples:" section of a command's help. */
const examples = (...lines: string[]) => `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}`;

/** The program itself: name, version and the options every command takes. */
function declareGlobal(program: Command) {
  program
    .name('payctl')
    .description(
      'Admin and operations tool for the payments service: orders, payments, refunds, plans, subscriptions and the customer wallet.',
    )
    .version(VERSION, '-V, --version', 'print the version')
    .option('-p, --profile <name>', 'key profile to use (env PAYCTL_PROFILE)')
    .option('--base-url <url>', "override the profile's base URL, https only except loopback (env PAYCTL_BASE_URL)")
    .addOption(
      new Option('-o, --output <format>', 'default table on a terminal, json otherwise (env PAYCTL_OUTPUT)').choices([
        'table',
        'json',
        'ndjson',
        'csv',
      ]),
    )
    .option(
      '--out <file>',
      'write the result to FILE atomically (0600) instead of stdout; lists walk every page unless --limit, in the format of the extension: .csv .json .ndjson/.jsonl .xlsx',
    )
    .option('--fields <list>', 'comma-separated fields/columns, dot paths allowed (notes.reason)')
    .option('-y, --yes', 'skip confirmations (required for money movement without a terminal)')
    .option('--dry-run', 'validate and print the request(s) that would be sent; send nothing')
    .option('--debug', 'HTTP trace on stderr (credentials redacted)')
    .option('--timeout <seconds>', 'deadline of each attempt, connect to last byte, in seconds (default 30)')
    .option('--tz <zone>', 'IANA time zone for reading and showing times (default: local; env PAYCTL_TZ)')
    .option('--sandbox', 'run against the embedded local sandbox (no profile needed)')
    .option('--no-color', 'no colours (also NO_COLOR; FORCE_COLOR forces them)')
    .option('--wide', 'tables: show every column instead of fitting the terminal width')
    // Subcommands copy this setting when declared: every `--help` then lists the global options too.
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError(true);
}

/** Each command group, declared only when it is the one being run (or for help and completion). */
const GROUPS: Record<string, (program: Command, run: Run) => void> = {
  orders(program, run) {
    const orders = program.command('orders').description('list and create orders');
    orders
      .command('list')
      .description('list orders, most recent first')
      .option('--from <time>', 'created at or after: Unix seconds, ISO date/date-time, 7d, 24h, today, yesterday')
      .option('--to <time>', 'created at or before (a bare date includes the whole day)')
      .option('--count <n>', 'items in one page, 1-100 (service default 10)')
      .option('--skip <n>', 'items to skip')
      .option('--authorized', 'only orders with an authorized payment')
      .option('--receipt <receipt>', 'only orders with this receipt')
      .option('--all', 'walk every page (100 at a time)')
      .option('--limit <n>', 'with --all or --out, stop after N items')
      .addHelpText(
        'after',
        examples(
          'payctl orders list --from 7d',
          'payctl orders list --from 2024-04-01 --to 2024-04-30 --tz Asia/Kolkata --out april-orders.xlsx',
          'payctl orders list --receipt rcpt-42 -o json',
        ),
      )
      .action(run('orders', 'list'));
    orders
      .command('create')
      .description('create an order')
      .requiredOption('--amount <amount>', 'amount in the smallest currency unit (paise for INR): 50000 = ₹500.00')
      .requiredOption('--currency <code>', 'ISO 4217 currency code, e.g. INR')
      .option('--receipt <receipt>', 'your reference, at most 40 characters')
      .option('--manual-capture', 'authorize only; capture later with `payments capture`')
      .option('--note <key=value>', 'note to attach (repeatable, at most 15, values up to 256 characters)', collect)
      .addHelpText(
        'after',
        examples(
          'payctl orders create --amount 50000 --currency INR --receipt rcpt-42',
          'payctl orders create --amount 50000 --currency INR --manual-capture --note customer=acme',
        ),
      )
      .action(run('orders', 'create'));
  },
  payments(program, run) {
    const payments = program.command('payments').description('list, fetch, capture and refund payments');
    payments
      .command('list')
      .description('list payments, most recent first')
      .option('--from <time>', 'created at or after: Unix seconds, ISO date/date-time, 7d, 24h, today, yesterday')
      .option('--to <time>', 'created at or before (a bare date includes the whole day)')
      .option('--count <n>', 'items in one page, 1-100')
      .option('--skip <n>', 'items to skip')
      .addOption(
        new Option(
          '--status <status>',
          'keep only this status (filtered by payctl: the service has no such filter)',
        ).choices(['created', 'authorized', 'captured', 'refunded', 'failed']),
      )
      .option('--all', 'walk every page (100 at a time)')
      .option('--limit <n>', 'with --all or --out, stop after N items')
      .addHelpText(
        'after',
        examples(
          'payctl payments list --status authorized',
          'payctl payments list --all --from yesterday -o ndjson',
          'payctl payments list --from 2024-01-01 --to 2024-03-31 --tz Asia/Kolkata --out q1-payments.csv',
        ),
      )
      .action(run('payments', 'list'));
    payments
      .command('get')
      .description('fetch one payment')
      .argument('<id>', 'payment id (pay_…)')
      .addHelpText(
        'after',
        examples(
          'payctl payments get pay_29QQoUBi66xm2f',
          'payctl payments get pay_29QQoUBi66xm2f -o json | jq .amount_refunded',
          'payctl payments get pay_29QQoUBi66xm2f --fields id,status,amount,amount_refunded',
        ),
      )
      .action(run('payments', 'get'));
    bulkOptions(
      payments
        .command('capture')
        .description('capture an authorized payment (its full amount unless --amount/--currency are given)')
        .argument('[id...]', 'payment id (pay_…)')
        .option('--amount <amount>', 'must equal the payment amount, smallest currency unit (paise)')
        .option('--currency <code>', 'must equal the payment currency'),
    )
      .addHelpText(
        'after',
        examples(
          'payctl payments capture                     # on a terminal: guided, step by step',
          'payctl payments capture pay_29QQoUBi66xm2f --amount 50000 --currency INR --yes',
          'payctl payments capture --input authorized.csv --yes --concurrency 16',
        ),
      )
      .action(run('payments', 'capture'));
    bulkOptions(
      payments
        .command('refund')
        .description('refund a captured payment, in full or in part')
        .argument('[id...]', 'payment id (pay_…)')
        .option(
          '--amount <amount>',
          'amount to refund in the smallest currency unit (paise); default: all that remains',
        )
        .option('--receipt <receipt>', 'your reference, at most 40 characters')
        .option('--note <key=value>', 'note to attach (repeatable)', collect),
    )
      .option(
        '--retry-unknown',
        'resend refunds whose outcome the journal marks unknown (first check each with `payctl payments get ID`)',
      )
      .addHelpText(
        'after',
        examples(
          'payctl payments refund                      # on a terminal: guided, step by step',
          'payctl payments refund pay_29QQoUBi66xm2f --amount 20000 --note reason=damaged',
          'payctl payments refund --input refunds.csv --yes',
        ),
      )
      .action(run('payments', 'refund'));
  },
  plans(program, run) {
    program
      .command('plans')
      .description('recurring billing plans')
      .command('create')
      .description('create a plan')
      .addOption(
        new Option('--period <period>', 'billing period')
          .choices(['daily', 'weekly', 'monthly', 'yearly'])
          .makeOptionMandatory(),
      )
      .requiredOption('--interval <n>', 'periods per billing cycle (3 with monthly = quarterly)')
      .requiredOption('--name <name>', 'display name of the plan item')
      .requiredOption('--amount <amount>', 'amount per cycle in the smallest currency unit (paise)')
      .requiredOption('--currency <code>', 'ISO 4217 code, e.g. INR')
      .option('--description <text>', 'item description')
      .option('--note <key=value>', 'note to attach (repeatable)', collect)
      .addHelpText(
        'after',
        examples(
          'payctl plans create --period monthly --interval 1 --name Gold --amount 49900 --currency INR',
          'payctl plans create --period monthly --interval 3 --name Quarterly --amount 129900 --currency INR --note tier=gold',
        ),
      )
      .action(run('plans', 'create'));
  },
  subscriptions(program, run) {
    const subscriptions = program.command('subscriptions').description('subscriptions to plans');
    subscriptions
      .command('create')
      .description('subscribe to a plan')
      .requiredOption('--plan <id>', 'plan id (plan_…)')
      .requiredOption('--total-count <n>', 'number of billing cycles')
      .option('--notify', 'let the service notify the customer (customer_notify=1)')
      .option('--no-notify', 'notify the customer yourself (customer_notify=0)')
      .option(
        '--start-at <time>',
        'first cycle start, in the future: Unix seconds, ISO date/date-time, tomorrow, next-month; default now',
      )
      .option('--note <key=value>', 'note to attach (repeatable)', collect)
      .addHelpText(
        'after',
        examples(
          'payctl subscriptions create --plan plan_Jd8x3kQpL2mZ7v --total-count 12 --start-at next-month',
          'payctl subscriptions create --plan plan_Jd8x3kQpL2mZ7v --total-count 6 --notify',
        ),
      )
      .action(run('subscriptions', 'create'));
    subscriptions
      .command('get')
      .description('fetch a subscription')
      .argument('<id>', 'subscription id (sub_…)')
      .addHelpText(
        'after',
        examples(
          'payctl subscriptions get sub_Kq2vX9pLm4Tz8w',
          'payctl subscriptions get sub_Kq2vX9pLm4Tz8w -o json | jq .status',
        ),
      )
      .action(run('subscriptions', 'get'));
    subscriptions
      .command('cancel')
      .description('cancel now (nothing more is charged) or at the end of the current cycle')
      .argument('<id>', 'subscription id (sub_…)')
      .option('--at-cycle-end', 'let the current billing period finish first')
      .addHelpText(
        'after',
        examples(
          'payctl subscriptions cancel sub_Kq2vX9pLm4Tz8w',
          'payctl subscriptions cancel sub_Kq2vX9pLm4Tz8w --at-cycle-end',
        ),
      )
      .action(run('subscriptions', 'cancel'));
  },
  wallet(program, run) {
    const wallet = program
      .command('wallet')
      .description('customer wallet (discontinued product, April 2023; INR only)');
    wallet
      .command('transfer')
      .description("move a captured payment's money into a customer's wallet")
      .argument('<payment_id>', 'captured payment (pay_…)')
      .requiredOption('--customer <id>', 'customer (cust_…)')
      .requiredOption('--amount <amount>', 'amount in paise (20000 = ₹200.00), at most the captured amount')
      .option('--note <key=value>', 'note to attach (repeatable)', collect)
      .addHelpText(
        'after',
        examples(
          'payctl wallet transfer pay_29QQoUBi66xm2f --customer cust_4xbQrmEoA5q1fP --amount 20000',
          'payctl wallet transfer pay_29QQoUBi66xm2f --customer cust_4xbQrmEoA5q1fP --amount 5000 --note reason=goodwill --yes',
        ),
      )
      .action(run('wallet', 'transfer'));
    wallet
      .command('credit')
      .description('credit a wallet directly (cashback; no payment consumed)')
      .requiredOption('--customer <id>', 'customer (cust_…)')
      .requiredOption('--amount <amount>', 'amount in paise (10000 = ₹100.00)')
      .option('--note <key=value>', 'note to attach (repeatable)', collect)
      .addHelpText(
        'after',
        examples(
          'payctl wallet credit --customer cust_4xbQrmEoA5q1fP --amount 5000 --note reason=cashback',
          'payctl wallet credit --customer cust_4xbQrmEoA5q1fP --amount 10000 --yes',
        ),
      )
      .action(run('wallet', 'credit'));
    wallet
      .command('pay')
      .description("pay an order from a customer's wallet balance")
      .requiredOption('--customer <id>', 'customer (cust_…)')
      .requiredOption('--order <id>', 'order (order_…)')
      .requiredOption('--amount <amount>', 'amount in paise (10000 = ₹100.00)')
      .requiredOption('--contact <phone>', 'customer phone, e.g. +919876543210')
      .requiredOption('--email <email>', 'customer e-mail')
      .option('--description <text>', 'description')
      .option('--note <key=value>', 'note to attach (repeatable)', collect)
      .addHelpText(
        'after',
        examples(
          'payctl wallet pay --customer cust_4xbQrmEoA5q1fP --order order_DBJOWzybf0sJbb --amount 10000 --contact +919876543210 --email a@example.com',
          'payctl wallet pay --customer cust_4xbQrmEoA5q1fP --order order_DBJOWzybf0sJbb --amount 10000 --contact 9876543210 --email a@example.com --yes',
        ),
      )
      .action(run('wallet', 'pay'));
    wallet
      .command('balance')
      .description('wallet balance, monthly usage and maximum')
      .argument('<customer>', 'customer (cust_…)')
      .addHelpText(
        'after',
        examples(
          'payctl wallet balance cust_4xbQrmEoA5q1fP',
          'payctl wallet balance cust_4xbQrmEoA5q1fP -o json | jq .balance',
        ),
      )
      .action(run('wallet', 'balance'));
    wallet
      .command('statement')
      .description(
        'wallet statement entries (most recent first, or --oldest-first); several customers or --input for an export',
      )
      .argument('[customer...]', 'customer ids (cust_…)')
      .option('--input <file>', 'customer ids, one per line (- for stdin)')
      .option(
        '--from <time>',
        'entries at or after: Unix seconds, ISO date/date-time, 7d, today, this-month, last-month',
      )
      .option('--to <time>', 'entries at or before (a bare date includes the whole day)')
      .option('--count <n>', 'entries in one page, 1-100')
      .option('--skip <n>', 'entries to skip')
      .option('--all', 'walk every page')
      .option('--limit <n>', 'with --all or --out, stop after N entries per customer')
      .option('--oldest-first', 'ledger order: oldest entry first (with --all or --out)')
      .option('--skip-missing', 'export the other customers when some are unknown or have no wallet, and list those')
      .addHelpText(
        'after',
        examples(
          'payctl wallet statement cust_4xbQrmEoA5q1fP --from last-month --to last-month --oldest-first --out statement.xlsx',
          'payctl wallet statement --input customers.txt --from 2024-04-01 --to 2024-04-30 --tz Asia/Kolkata --skip-missing --out april.csv',
          'payctl wallet statement cust_4xbQrmEoA5q1fP --from 7d',
        ),
      )
      .action(run('wallet', 'statement'));
    wallet
      .command('fund-account')
      .description('bank accounts for payouts')
      .command('create')
      .description('add a bank account for a customer')
      .requiredOption('--customer <id>', 'customer (cust_…)')
      .requiredOption('--name <name>', 'account holder name as per bank records')
      .requiredOption('--ifsc <code>', 'bank IFSC code')
      .requiredOption('--account-number <digits>', 'beneficiary account number')
      .addHelpText(
        'after',
        examples(
          'payctl wallet fund-account create --customer cust_4xbQrmEoA5q1fP --name "Gaurav Kumar" --ifsc HDFC0000053 --account-number 765432123456789',
          'payctl wallet fund-account create --customer cust_4xbQrmEoA5q1fP --name "Asha Rao" --ifsc SBIN0000001 --account-number 11112222333 -o json',
        ),
      )
      .action(run('wallet', 'fundAccountCreate'));
    wallet
      .command('payout')
      .description("pay out from a customer's wallet to their bank account")
      .argument('<customer>', 'customer (cust_…)')
      .requiredOption('--fund-account <id>', 'fund account (fa_…)')
      .requiredOption('--amount <amount>', 'amount in paise (10000 = ₹100.00)')
      .requiredOption('--purpose <purpose>', 'reason, e.g. refund, cashback, payout')
      .option('--reference-id <ref>', 'your reference, at most 40 characters')
      .option('--narration <text>', 'bank statement text: at most 30 of a-z A-Z 0-9 space')
      .option('--note <key=value>', 'note to attach (repeatable)', collect)
      .addHelpText(
        'after',
        examples(
          'payctl wallet payout cust_4xbQrmEoA5q1fP --fund-account fa_Lm3nB7vC9xZq2w --amount 10000 --purpose refund',
          'payctl wallet payout cust_4xbQrmEoA5q1fP --fund-account fa_Lm3nB7vC9xZq2w --amount 10000 --purpose cashback --narration "Acme refund" --yes',
        ),
      )
      .action(run('wallet', 'payout'));
  },
  api(program, run) {
    program
      .command('api')
      .description("call any endpoint with payctl's profiles, retries, confirmations and output, like `gh api`")
      .argument(
        '<method-or-path>',
        'GET or POST, then PATH; or just PATH (GET, or POST when -F/-f/--input give a body)',
      )
      .argument(
        '[path]',
        "path below the profile's base URL, which adds its version prefix (/payments/pay_…); ?query allowed",
      )
      .option(
        '-F, --field <key=value>',
        'typed field: numbers, true, false and null become JSON; a[b]=v nests, a[]=v appends; query string of a GET (repeatable)',
        collect,
      )
      .option('-f, --raw-field <key=value>', 'string field, never converted (repeatable)', collect)
      .option('--input <file>', 'request body: a JSON file, or - for stdin (-F/-f then go to the query string)')
      .option('--all', 'GET a list: walk every page with count/skip and print the items')
      .option('--limit <n>', 'with --all, stop after N items')
      .addHelpText(
        'after',
        '\nA POST confirms on a terminal (--yes without one). If its answer is lost it is never resent: payctl\nexits 6 with the command that shows whether it was applied, e.g. `payctl payments get pay_…`.',
      )
      .addHelpText(
        'after',
        examples(
          'payctl api GET /orders/order_DBJOWzybf0sJbb                  # an order by id (real service)',
          'payctl api GET /payments --all -F from=1714501800 -o csv --out payments.csv',
          'payctl api POST /payments/pay_29QQoUBi66xm2f/refund -F amount=20000 -F notes[reason]=damaged',
          'payctl api GET /plans -F count=5                             # plans (real service)',
        ),
      )
      .action(run('api', 'call'));
  },
  profile(program, run) {
    const profile = program.command('profile').description('manage key profiles');
    profile
      .command('add')
      .description(
        'add or replace a key profile (the secret is asked for hidden, or read from stdin/PAYCTL_KEY_SECRET)',
      )
      .argument('<name>', 'profile name')
      .option('--key-id <id>', 'key id')
      .option('--key-secret-stdin', 'read the key secret from standard input')
      .option('--live', 'mark as a live profile (bulk runs ask to type its name)')
      .option('--default', 'make it the default profile')
      .addHelpText(
        'after',
        examples(
          'payctl profile add prod --key-id rzp_live_XXXX --base-url https://api.example.com/v1 --live',
          'printf %s "$SECRET" | payctl profile add ci --key-id rzp_test_XXXX --base-url https://api.example.com/v1 --key-secret-stdin',
        ),
      )
      .action(run('profile', 'add'));
    profile
      .command('list')
      .description('list profiles (secrets masked)')
      .addHelpText('after', examples('payctl profile list', 'payctl profile list -o json'))
      .action(run('profile', 'list'));
    profile
      .command('use')
      .description('make a profile the default')
      .argument('<name>', 'profile name')
      .addHelpText('after', examples('payctl profile use prod', 'payctl profile use sandbox'))
      .action(run('profile', 'use'));
    profile
      .command('remove')
      .description('delete a profile')
      .argument('<name>', 'profile name')
      .addHelpText('after', examples('payctl profile remove old-test', 'payctl profile remove ci'))
      .action(run('profile', 'remove'));
    profile
      .command('show')
      .description('show one profile (secret masked)')
      .argument('[name]', 'profile name (default: the active one)')
      .addHelpText('after', examples('payctl profile show', 'payctl profile show prod -o json'))
      .action(run('profile', 'show'));
    profile
      .command('test')
      .description("check that a profile's key is accepted")
      .argument('[name]', 'profile name (default: the active one)')
      .addHelpText('after', examples('payctl profile test', 'payctl profile test prod'))
      .action(run('profile', 'test'));
  },
  sandbox(program, run) {
    const sandbox = program.command('sandbox').description('the embedded local sandbox of the service');
    sandbox
      .command('start')
      .description(
        'serve the sandbox on loopback; prints its URL, keys and webhook secret; the default database also writes the "sandbox" profile',
      )
      .option('--port <n>', 'port (0 = any free port)', '4010')
      .option('--db <file>', 'SQLite file, or :memory: (default: sandbox.db in the data directory)')
      .option('--rate-limit <n>', 'answer 429 past N requests per second')
      .option('--fault-rate <p>', 'probability 0-1 of a 500 or dropped connection, some after the write was applied')
      .option('--latency <ms>', 'delay every response by this many milliseconds')
      .option('--seed <n>', 'seed for faults and generated data')
      .option('--capture-window <duration>', 'how long an authorized payment may wait for capture (default 5d)')
      .option(
        '--webhook <url>',
        'POST every event here (payment, order, refund, subscription, transfer, payout), signed, retried',
      )
      .option(
        '--webhook-secret <secret>',
        'signs X-Razorpay-Signature (default: generated once and kept in the database)',
      )
      .addHelpText(
        'after',
        examples(
          'payctl sandbox start',
          'payctl sandbox start --port 0 --db :memory: -o json',
          'payctl sandbox start --webhook http://127.0.0.1:9000/hooks --webhook-secret s3cret-hook',
        ),
      )
      .action(run('sandbox', 'start'));
    sandbox
      .command('pay')
      .description("simulate the customer's checkout for an order, or their authorisation of a subscription")
      .argument('<id>', 'order id (order_…) or subscription id (sub_…)')
      .addOption(
        new Option('--method <method>', 'payment method')
          .choices(['card', 'netbanking', 'wallet', 'upi'])
          .default('card'),
      )
      .option('--fail', 'make the payment fail (a subscription: its authorisation, or its charges from now on)')
      .option('--email <email>', 'customer e-mail')
      .option('--contact <phone>', 'customer phone')
      .addHelpText(
        'after',
        examples(
          'payctl sandbox pay order_DBJOWzybf0sJbb',
          'payctl sandbox pay order_DBJOWzybf0sJbb --method upi --fail',
          'payctl sandbox pay sub_DBJOWzybf0sJbb',
        ),
      )
      .action(run('sandbox', 'pay'));
    const clock = sandbox
      .command('clock')
      .description('show or move the sandbox clock')
      .addHelpText('after', examples('payctl sandbox clock', 'payctl sandbox clock advance 6d'))
      .action(run('sandbox', 'clock'));
    clock
      .command('advance')
      .description('move sandbox time forward; what falls due happens (auto-refunds, subscription cycles, payouts)')
      .argument('<duration>', 'e.g. 6d, 24h, 90m, 3600')
      .addHelpText('after', examples('payctl sandbox clock advance 6d', 'payctl sandbox clock advance 3600'))
      .action(run('sandbox', 'clockAdvance'));
    sandbox
      .command('reset')
      .description('delete every sandbox resource and counter')
      .addHelpText('after', examples('payctl sandbox reset', 'payctl sandbox reset && payctl sandbox seed 50'))
      .action(run('sandbox', 'reset'));
    sandbox
      .command('seed')
      .description('create sample data; prints the ids (payment ids with --authorized)')
      .argument('[n]', 'orders in a realistic mix of states (default 20)')
      .option('--authorized <n>', 'manual-capture orders with one authorized payment each')
      .addHelpText(
        'after',
        examples(
          'payctl sandbox seed',
          'payctl sandbox seed 100',
          "payctl sandbox seed --authorized 50 -o json | jq -r '.[]'",
        ),
      )
      .action(run('sandbox', 'seed'));
    sandbox
      .command('stats')
      .description('requests seen and writes applied (for tests)')
      .addHelpText('after', examples('payctl sandbox stats', 'payctl sandbox stats -o json | jq .writes'))
      .action(run('sandbox', 'stats'));
    sandbox
      .command('events')
      .description('events the sandbox emitted (newest first), with their webhook delivery state')
      .addHelpText('after', examples('payctl sandbox events', 'payctl sandbox events -o ndjson | jq .event'))
      .action(run('sandbox', 'events'));
    sandbox
      .command('customer')
      .description('sandbox customers')
      .command('create')
      .description('create a customer (the service has no create endpoint)')
      .requiredOption('--contact <phone>', 'phone number, e.g. +919876543210')
      .option('--email <email>', 'e-mail')
      .option('--name <name>', 'name')
      .addHelpText(
        'after',
        examples(
          'payctl sandbox customer create --contact +919876543210 --name "Asha Rao"',
          'payctl sandbox customer create --contact 9123456780 --email vikram@example.com -o json',
        ),
      )
      .action(run('sandbox', 'customerCreate'));
  },
};

function declareTooling(program: Command, streams: IO, env: NodeJS.ProcessEnv) {
  program
    .command('completion')
    .description('print a shell completion script generated from the command tree')
    .addArgument(new Argument('<shell>', 'shell').choices(['bash', 'zsh', 'fish']))
    .addHelpText(
      'after',
      '\nExamples:\n  payctl completion bash > ~/.local/share/bash-completion/completions/payctl\n  payctl completion zsh > "${fpath[1]}/_payctl"\n  payctl completion fish > ~/.config/fish/completions/payctl.fish',
    )
    .action(async (shell: string) => {
      const { completionScript } = await import('./completion');
      streams.stdout.write(completionScript(shell, program) ?? '');
    });
  // Read by the completion scripts at completion time; reads the config file directly to stay fast.
  program.command('__profiles', { hidden: true }).action(async () => {
    const [{ readFile }, { join }, { payctlPaths }] = await Promise.all([
      import('node:fs/promises'),
      import('node:path'),
      import('./config/paths'),
    ]);
    const text = await readFile(join(payctlPaths(env).config, 'config.json'), 'utf8').catch(() => '{}');
    let names: string[] = [];
    try {
      names = Object.keys((JSON.parse(text) as { profiles?: object } | null)?.profiles ?? {});
    } catch {
      // A damaged config: completion offers nothing; every other command names the file and what to do.
    }
    streams.stdout.write(names.length ? `${names.join('\n')}\n` : '');
  });
}

type Run = (group: keyof typeof handlers, name: string) => (...a: unknown[]) => Promise<void>;

const VALUE_OPTIONS = new Set([
  '-p',
  '--profile',
  '--base-url',
  '-o',
  '--output',
  '--out',
  '--fields',
  '--timeout',
  '--tz',
]);

/** The first word that is not a global option (or its value): the command group being run. */
export function commandWord(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return argv[i + 1];
    if (!arg.startsWith('-')) return arg;
    if (VALUE_OPTIONS.has(arg)) i++;
  }
  return undefined;
}

/**
 * The command tree; `run` binds each command to its lazily imported handler. Given the argv, only the
 * group being run is declared (building all of them is a measurable part of a short command's start);
 * anything else (help, completion, a typo to suggest for) gets the whole tree.
 */
export function createProgram(run: Run, streams: IO, env: NodeJS.ProcessEnv, argv?: string[]): Command {
  const program = new Command();
  program.exitOverride();
  program.configureOutput({
    writeOut: (s) => streams.stdout.write(s),
    writeErr: (s) => streams.stderr.write(s),
    // One line, like every other payctl error: commander puts suggestions on a line of their own.
    outputError: (s, write) => write(`payctl: ${s.trim().replace(/\s*\n\s*/g, ' ')} (see --help)\n`),
  });
  declareGlobal(program);
  const word = argv && commandWord(argv);
  const only = word !== undefined && Object.hasOwn(GROUPS, word) ? [word] : Object.keys(GROUPS);
  for (const name of only) GROUPS[name]!(program, run);
  declareTooling(program, streams, env);
  // exitOverride and output settings must reach every subcommand, declared after the call above.
  const apply = (cmd: Command) => {
    cmd.exitOverride();
    cmd.configureOutput(program.configureOutput());
    cmd.commands.forEach(apply);
  };
  program.commands.forEach(apply);
  return program;
}

function exitCodeOf(err: unknown, signalName?: 'SIGINT' | 'SIGTERM'): number {
  if (signalName) return signalName === 'SIGTERM' ? 143 : 130;
  const kind = (err as { kind?: ErrorKind })?.kind;
  if (kind === 'interrupted') return (err as { signal?: string }).signal === 'SIGTERM' ? 143 : 130;
  if (kind && kind in EXIT_CODES) return EXIT_CODES[kind];
  return 1;
}

/** Strings in an error object, cleaned like every other service text that reaches a terminal. */
const cleanDeep = (v: unknown): unknown =>
  typeof v === 'string'
    ? stripControl(v)
    : Array.isArray(v)
      ? v.map(cleanDeep)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cleanDeep(x)]))
        : v;

function failedOutput(err: NodeJS.ErrnoException, io: IO): number {
  io.stderr.write(`payctl: could not write to stdout (${err.code ?? err.message}): the output is incomplete\n`);
  return 1;
}

function report(err: unknown, io: IO, json: boolean, debug: boolean) {
  const e = err as {
    message?: string;
    hints?: string[];
    kind?: string;
    service?: Record<string, unknown>;
    toJSON?: () => unknown;
    stack?: string;
  };
  // Messages and hints quote the service (descriptions, bodies of odd answers): no escape sequence
  // from there may retitle, clear or reorder the terminal.
  const lines = [`payctl: ${stripControl(e?.message ?? String(err))}`];
  const service = e?.service;
  if (service) {
    const extra = ['code', 'reason', 'field', 'source', 'step']
      .filter((k) => service[k] && service[k] !== 'NA')
      .map((k) => `${k}=${stripControl(String(service[k]))}`);
    if (extra.length) lines.push(`  ${extra.join(' ')}`);
  }
  for (const hint of e?.hints ?? []) lines.push(`  ${stripControl(hint)}`);
  if (debug && e?.stack) lines.push(...e.stack.split('\n').slice(1).map(stripControl));
  io.stderr.write(`${lines.join('\n')}\n`);
  if (json)
    io.stderr.write(
      `${JSON.stringify({ error: cleanDeep(e?.toJSON ? e.toJSON() : { kind: 'failure', message: e?.message ?? String(err) }) })}\n`,
    );
}

/**
 * Runs one invocation and resolves to its exit code. Given `io` (tests, fuzzing) it stays in-process:
 * no signal handlers, no exit. Without it, it owns the process and exits with that code.
 */
export async function runProgram(argv: string[], io?: IO, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const controller = new AbortController();
  let signalName: 'SIGINT' | 'SIGTERM' | undefined;
  let outputFailure: NodeJS.ErrnoException | undefined;
  const writes = new WritesInFlight();
  const streams: IO = io ?? {
    // A failed stdout stops the run (no new items; those in flight finish and are recorded): exit 7 for
    // a bulk run, quietly 0 for a reader that only wanted the first lines of a listing.
    stdout: guardedStdout(process.stdout, (err) => {
      outputFailure = err;
      if (!controller.signal.aborted) controller.abort(new OutputClosedError(err.code ?? 'EIO'));
    }),
    stderr: process.stderr,
    stdin: process.stdin,
    stdinIsTTY: Boolean(process.stdin.isTTY),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
  };
  // Libraries colour on their own (the prompts' theme goes through util.styleText, which reads
  // NO_COLOR): --no-color must reach them too.
  if (!io && argv.includes('--no-color')) process.env.NO_COLOR = '1';
  if (!io) {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) {
      process.on(sig, () => {
        if (signalName) process.exit(sig === 'SIGTERM' ? 143 : 130);
        signalName = sig;
        if (!controller.signal.aborted) controller.abort(new Interrupt(sig));
        writes.onInterrupt(streams.stderr);
      });
    }
  }
  let wantJson = false;
  let debug = false;

  const run =
    (group: keyof typeof handlers, name: string) =>
    async (...params: unknown[]) => {
      const command = params[params.length - 1] as Command;
      const flags = command.optsWithGlobals() as GlobalFlags & Record<string, unknown>;
      debug = Boolean(flags.debug);
      wantJson = (flags.output ?? env.PAYCTL_OUTPUT) === 'json';
      const args = (command.processedArgs as unknown[])
        .flatMap((a) => (Array.isArray(a) ? a : a === undefined ? [] : [a]))
        .map(String);
      const loaded = await handlers[group]();
      const { settingsFrom, createRuntime, emit } = loaded;
      const mod = (loaded as unknown as Record<string, Module>)[group]!;
      const settings = settingsFrom(flags, env, streams);
      wantJson = settings.formatChosen && settings.format === 'json';
      const runtime = createRuntime(settings, env, streams, controller.signal, writes);
      try {
        const handler = (mod as Module)[name] as Handler;
        // --out is global (any command's result can go to a file); handlers read it with their own options.
        const opts = flags.out === undefined ? command.opts() : { ...command.opts(), out: flags.out };
        // Before the handler sends anything: exit 2 must mean nothing was sent.
        if (flags.out !== undefined) await (await import('./output/atomic-file')).checkOutTarget(String(flags.out));
        const result = await handler({ args, opts }, runtime);
        await emit(result, settings, streams);
      } finally {
        await runtime.dispose();
      }
    };

  // commander's `help` looks one level deep; `payctl help wallet statement` must match `payctl wallet statement --help`.
  if (argv[0] === 'help' && argv.length > 1) argv = [...argv.slice(1), '--help'];
  const program = createProgram(run, streams, env, argv);

  let code = 0;
  try {
    await program.parseAsync(argv, { from: 'user' });
    if (signalName) code = exitCodeOf(undefined, signalName);
    else if (outputFailure && outputFailure.code !== 'EPIPE') code = failedOutput(outputFailure, streams);
  } catch (err) {
    if (err instanceof CommanderError) {
      code = err.exitCode === 0 ? 0 : 2;
    } else if (outputFailure && !signalName && (err as { kind?: string })?.kind !== 'bulk_incomplete') {
      code = outputFailure.code === 'EPIPE' ? 0 : failedOutput(outputFailure, streams);
    } else {
      code = exitCodeOf(err, signalName);
      if (!(signalName && (err as Error)?.name === 'AbortError')) report(err, streams, wantJson, debug);
    }
  }
  if (!io) {
    process.exitCode = code;
    // Exit explicitly: a stray keep-alive socket or stdin listener must not keep a finished command alive.
    streams.stdout.write('', () => process.stdout.write('', () => process.exit(code)));
  }
  return code;
}
