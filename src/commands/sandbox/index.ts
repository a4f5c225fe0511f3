import { Option } from '@commander-js/extra-typings';
import { group, lazy, pick, verb } from '../declare';
import { PAYMENT_METHODS } from '../../contract/vocabulary';

const start = lazy(() => import('./start'));
const statement = lazy(() => import('./bank-statement'));

/**
 * The `sandbox` commands: the group's line in `payctl --help` (all that a run of another group declares of
 * it), the module of its handlers (imported only when one of them runs), and its commands.
 */
export const sandbox = group(
  'sandbox',
  'the embedded local sandbox of the service',
  () => import('./handlers'),
  (sandbox, bind, run) => {
    verb(
      sandbox,
      'start',
      'serve the sandbox on loopback; prints its URL, keys and webhook secret; ' +
        'the default database also writes the "sandbox" profile',
      [
        'payctl sandbox start',
        'payctl sandbox start --port 0 --db :memory: -o json',
        'payctl sandbox start --webhook http://127.0.0.1:9000/hooks --webhook-secret s3cret-hook',
      ],
    )
      .option('--port <n>', 'port (0 = any free port)', '4010')
      .option('--db <file>', 'SQLite file, or :memory: (default: sandbox.db in the data directory)')
      .option('--rate-limit <n>', 'answer 429 past N requests per second')
      .option('--fault-rate <p>', 'probability 0-1 of a 500 or dropped connection, some after the write was applied')
      .option('--latency <ms>', 'hold every request this many milliseconds before it is applied')
      .option('--no-idempotency', 'ignore X-Refund-Idempotency on refunds, as a service without it would')
      .option('--seed <n>', 'seed for faults and generated data')
      .option('--capture-window <duration>', 'how long an authorized payment may wait for capture (default 5d)')
      .option(
        '--fee-rate <percent>',
        'service charge on captures, plus 18% GST on it (default 2; kept in the database)',
      )
      .option(
        '--webhook <url>',
        'POST every event here (payment, order, refund, subscription, transfer, payout, settlement), signed, retried',
      )
      .option(
        '--webhook-secret <secret>',
        'signs X-Razorpay-Signature (default: generated once and kept in the database)',
      )
      .action(
        bind(start('startSandbox'), ({ opts }) =>
          pick(
            opts,
            'port',
            'db',
            'rateLimit',
            'faultRate',
            'latency',
            'seed',
            'captureWindow',
            'feeRate',
            'webhook',
            'webhookSecret',
            'idempotency',
          ),
        ),
      );
    verb(sandbox, 'pay', "simulate the customer's checkout for an order, or their authorisation of a subscription", [
      'payctl sandbox pay order_DBJOWzybf0sJbb',
      'payctl sandbox pay order_DBJOWzybf0sJbb --method upi --fail',
      'payctl sandbox pay sub_DBJOWzybf0sJbb',
    ])
      .argument('<id>', 'order id (order_…) or subscription id (sub_…)')
      .addOption(new Option('--method <method>', 'payment method').choices(PAYMENT_METHODS).default('card'))
      .option('--fail', 'make the payment fail (a subscription: its authorisation, or its charges from now on)')
      .option('--email <email>', 'customer e-mail')
      .option('--contact <phone>', 'customer phone')
      .action(
        bind(run('simulatePayment'), ({ args: [id = ''], opts }) => ({
          id,
          ...pick(opts, 'method', 'email', 'contact'),
          fail: Boolean(opts.fail),
        })),
      );
    const clock = verb(sandbox, 'clock', 'show or move the sandbox clock', [
      'payctl sandbox clock',
      'payctl sandbox clock advance 6d',
    ]).action(bind(run('showClock'), () => ({})));
    verb(
      clock,
      'advance',
      'move sandbox time forward; what falls due happens (auto-refunds, subscription cycles, payouts)',
      ['payctl sandbox clock advance 6d', 'payctl sandbox clock advance 3600'],
    )
      .argument('<duration>', 'e.g. 6d, 24h, 90m, 3600')
      .action(bind(run('advanceClock'), ({ args: [duration = ''] }) => ({ duration })));
    verb(sandbox, 'reset', 'delete every sandbox resource and counter', [
      'payctl sandbox reset',
      'payctl sandbox reset && payctl sandbox seed 50',
    ]).action(bind(run('resetSandbox'), () => ({})));
    verb(sandbox, 'seed', 'create sample data; prints the ids (payment ids with --authorized)', [
      'payctl sandbox seed',
      'payctl sandbox seed 100',
      "payctl sandbox seed --authorized 50 -o json | jq -r '.[]'",
      'payctl sandbox seed --wallet 40',
    ])
      .argument('[n]', 'orders in a realistic mix of states (default 20)')
      .option('--authorized <n>', 'manual-capture orders with one authorized payment each')
      .option(
        '--wallet <n>',
        'customers with wallets, N statement entries each over several days ' +
          '(credits, wallet payments, refunds, payouts); prints the customer ids',
      )
      .action(
        bind(run('seedSandbox'), ({ args: [orders], opts }) => ({
          orders,
          authorized: opts.authorized,
          wallet: opts.wallet,
        })),
      );
    const account = verb(
      sandbox,
      'account',
      "this key's account: its id, and the merchant balance that wallet credits and transfers draw on",
      ['payctl sandbox account', 'payctl sandbox account -o json | jq .balance'],
    ).action(bind(run('showAccount'), () => ({})));
    verb(
      account,
      'create',
      'a new isolated account on this sandbox (its own records, ids, events, webhooks, settlements and clock); ' +
        'prints its key id, key secret and webhook secret',
      [
        'payctl sandbox account create --name ci-suite-7 -o json',
        'payctl sandbox snapshot save before-refunds && payctl sandbox account create --from before-refunds -o json',
      ],
    )
      .option('--name <name>', 'a name to tell it by (default: its id)')
      .option('--from <snapshot>', "start from a snapshot of this key's account (a fork: the original is untouched)")
      .option('--webhook <url>', "POST the new account's events here, signed with its webhook secret")
      .action(bind(run('createAccount'), ({ opts }) => pick(opts, 'name', 'from', 'webhook')));
    const snapshot = sandbox
      .command('snapshot')
      .description("save and restore this key's account's whole state, clock included");
    verb(snapshot, 'save', "keep the account's state under NAME (replacing a snapshot of that name)", [
      'payctl sandbox snapshot save before-refunds',
      'payctl sandbox snapshot save month-end -p sandbox -o json',
    ])
      .argument('<name>', 'letters, digits, dots, hyphens, underscores')
      .action(bind(run('saveSnapshot'), ({ args: [name = ''] }) => ({ name })));
    verb(snapshot, 'load', 'put the account back as snapshot NAME left it, clock included', [
      'payctl sandbox snapshot save before-refunds && payctl sandbox seed && payctl sandbox snapshot load before-refunds',
      'payctl sandbox snapshot load before-refunds -p sandbox -o json',
    ])
      .argument('<name>', 'a saved snapshot')
      .action(bind(run('loadSnapshot'), ({ args: [name = ''] }) => ({ name })));
    verb(snapshot, 'list', "the account's snapshots", [
      'payctl sandbox snapshot list',
      'payctl sandbox snapshot list -p sandbox -o json',
    ]).action(bind(run('listSnapshots'), () => ({})));
    verb(snapshot, 'delete', 'delete snapshot NAME', [
      'payctl sandbox snapshot save scratch && payctl sandbox snapshot delete scratch',
      'payctl sandbox snapshot save scratch-2 && payctl sandbox snapshot delete scratch-2 -o json',
    ])
      .argument('<name>', 'a saved snapshot')
      .action(bind(run('deleteSnapshot'), ({ args: [name = ''] }) => ({ name })));
    verb(sandbox, 'stats', 'requests seen and writes applied (for tests)', [
      'payctl sandbox stats',
      'payctl sandbox stats -o json | jq .writes',
    ]).action(bind(run('showStats'), () => ({})));
    verb(sandbox, 'events', 'events the sandbox emitted (newest first), with their webhook delivery state', [
      'payctl sandbox events',
      'payctl sandbox events -o ndjson | jq .event',
    ]).action(bind(run('listEvents'), () => ({})));
    verb(
      sandbox,
      'bank-statement',
      "the merchant bank account's statement for a month as a bank sends it: each settlement a credit on its " +
        'value date (weekends moved), other traffic, balances; --quirks makes the findings to rehearse',
      [
        'payctl sandbox bank-statement --month 2031-03 --format mt940 --out march.sta',
        'payctl sandbox bank-statement --month 2031-03 --format camt053 --quirks extra --out drill.xml',
        'payctl sandbox bank-statement --month 2031-03 --format csv > march.csv',
      ],
    )
      .requiredOption('--month <YYYY-MM>', 'the month (value dates in it)')
      .addOption(
        new Option('--format <format>', 'the statement format')
          .choices(['mt940', 'camt053', 'csv'] as const)
          .makeOptionMandatory(),
      )
      .option(
        '--quirks <list>',
        'comma-separated: missing (a settlement never arrives), extra (a credit nobody can explain), ' +
          'amount (one paisa short), truncate (a UTR cut too short to name one)',
      )
      .action(bind(statement('bankStatement'), ({ opts }) => pick(opts, 'month', 'format', 'quirks')));
    const customer = sandbox.command('customer').description('sandbox customers');
    verb(customer, 'create', 'create a customer, skipping the duplicate check of `payctl customers create`', [
      'payctl sandbox customer create --contact +919876543210 --name "Asha Rao"',
      'payctl sandbox customer create --contact 9123456780 --email vikram@example.com -o json',
    ])
      .requiredOption('--contact <phone>', 'phone number, e.g. +919876543210')
      .option('--email <email>', 'e-mail')
      .option('--name <name>', 'name')
      .action(bind(run('createCustomer'), ({ opts }) => pick(opts, 'contact', 'email', 'name')));
  },
);
