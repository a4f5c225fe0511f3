import { Command, CommanderError, Option } from 'commander';
import { VERSION } from './version';
import type { ErrorKind } from './api/errors';
import type { IO } from './commands/context';
import type { CommandResult, Input } from './commands/result';
import type { GlobalFlags } from './runtime';

/**
 * The one place that declares payctl's commands and options, and maps errors to exit codes.
 * Handlers are loaded with import() only when their command runs, so --version and --help stay light.
 */

type Handler = (input: Input, ctx: import('./commands/context').Context) => Promise<CommandResult>;
type Module = Record<string, Handler | unknown>;

const handlers = {
  orders: () => import('./commands/orders'),
  payments: () => import('./commands/payments'),
  profile: () => import('./commands/profile'),
  sandbox: () => import('./commands/sandbox'),
} satisfies Record<string, () => Promise<Module>>;

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

function declare(program: Command, run: (group: keyof typeof handlers, name: string) => (...a: unknown[]) => Promise<void>) {
  program
    .name('payctl')
    .description('Admin and operations tool for the payments service: orders, payments, refunds, plans, subscriptions and the customer wallet.')
    .version(VERSION, '-V, --version', 'print the version')
    .option('-p, --profile <name>', 'key profile to use (env PAYCTL_PROFILE)')
    .option('--base-url <url>', "override the profile's base URL, https only except loopback (env PAYCTL_BASE_URL)")
    .addOption(new Option('-o, --output <format>', 'table | json | ndjson | csv; default table on a terminal, json otherwise (env PAYCTL_OUTPUT)'))
    .option('--fields <list>', 'comma-separated fields/columns, dot paths allowed (notes.reason)')
    .option('-y, --yes', 'skip confirmations (required for money movement without a terminal)')
    .option('--dry-run', 'validate and print the request(s) that would be sent; send nothing')
    .option('--debug', 'HTTP trace on stderr (credentials redacted)')
    .option('--timeout <seconds>', 'per-request timeout in seconds (default 30)')
    .option('--tz <zone>', 'IANA time zone for reading and showing times (default: local; env PAYCTL_TZ)')
    .option('--sandbox', 'run against the embedded local sandbox (no profile needed)')
    .option('--no-color', 'no colours (also NO_COLOR)')
    .showSuggestionAfterError(true)
    .showHelpAfterError('(run with --help for usage)');

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
    .option('--limit <n>', 'with --all, stop after N items')
    .addHelpText('after', '\nExamples:\n  payctl orders list --from 7d\n  payctl orders list --all --from 2024-04-01 --to 2024-04-30 -o csv > april.csv')
    .action(run('orders', 'list'));
  orders
    .command('create')
    .description('create an order')
    .requiredOption('--amount <amount>', 'amount in the smallest currency unit (paise for INR): 50000 = ₹500.00')
    .requiredOption('--currency <code>', 'ISO 4217 currency code, e.g. INR')
    .option('--receipt <receipt>', 'your reference, at most 40 characters')
    .option('--manual-capture', 'authorize only; capture later with `payments capture`')
    .option('--note <key=value>', 'note to attach (repeatable, at most 15, values up to 256 characters)', collect)
    .addHelpText('after', '\nExamples:\n  payctl orders create --amount 50000 --currency INR --receipt rcpt-42\n  payctl orders create --amount 50000 --currency INR --manual-capture --note customer=acme')
    .action(run('orders', 'create'));

  const payments = program.command('payments').description('list, fetch, capture and refund payments');
  payments
    .command('list')
    .description('list payments, most recent first')
    .option('--from <time>', 'created at or after: Unix seconds, ISO date/date-time, 7d, 24h, today, yesterday')
    .option('--to <time>', 'created at or before (a bare date includes the whole day)')
    .option('--count <n>', 'items in one page, 1-100')
    .option('--skip <n>', 'items to skip')
    .option('--status <status>', 'keep only this status (filtered by payctl: the service has no such filter)')
    .option('--all', 'walk every page (100 at a time)')
    .option('--limit <n>', 'with --all, stop after N items')
    .addHelpText('after', '\nExamples:\n  payctl payments list --status authorized\n  payctl payments list --all --from yesterday -o ndjson')
    .action(run('payments', 'list'));
  payments
    .command('get')
    .description('fetch one payment')
    .argument('<id>', 'payment id (pay_…)')
    .addHelpText('after', '\nExample:\n  payctl payments get pay_29QQoUBi66xm2f')
    .action(run('payments', 'get'));
  payments
    .command('capture')
    .description('capture an authorized payment (its full amount unless --amount/--currency are given)')
    .argument('[id...]', 'payment id (pay_…)')
    .option('--amount <amount>', 'must equal the payment amount, smallest currency unit (paise)')
    .option('--currency <code>', 'must equal the payment currency')
    .addHelpText('after', '\nExamples:\n  payctl payments capture pay_29QQoUBi66xm2f\n  payctl payments capture pay_29QQoUBi66xm2f --amount 50000 --currency INR --yes')
    .action(run('payments', 'capture'));
  payments
    .command('refund')
    .description('refund a captured payment, in full or in part')
    .argument('[id...]', 'payment id (pay_…)')
    .option('--amount <amount>', 'amount to refund in the smallest currency unit (paise); default: all that remains')
    .option('--receipt <receipt>', 'your reference, at most 40 characters')
    .option('--note <key=value>', 'note to attach (repeatable)', collect)
    .addHelpText('after', '\nExamples:\n  payctl payments refund pay_29QQoUBi66xm2f --amount 20000\n  payctl payments refund pay_29QQoUBi66xm2f --yes --note reason=damaged')
    .action(run('payments', 'refund'));

  const profile = program.command('profile').description('manage key profiles');
  profile
    .command('add')
    .description('add or replace a key profile (the secret is asked for hidden, or read from stdin/PAYCTL_KEY_SECRET)')
    .argument('<name>', 'profile name')
    .option('--key-id <id>', 'key id')
    .option('--key-secret-stdin', 'read the key secret from standard input')
    .option('--live', 'mark as a live profile (bulk runs ask to type its name)')
    .option('--default', 'make it the default profile')
    .addHelpText('after', '\nExamples:\n  payctl profile add prod --key-id rzp_live_XXXX --base-url https://api.example.com/v1 --live\n  printf %s "$SECRET" | payctl profile add ci --key-id rzp_test_XXXX --base-url https://api.example.com/v1 --key-secret-stdin')
    .action(run('profile', 'add'));
  profile.command('list').description('list profiles (secrets masked)').action(run('profile', 'list'));
  profile.command('use').description('make a profile the default').argument('<name>').action(run('profile', 'use'));
  profile.command('remove').description('delete a profile').argument('<name>').action(run('profile', 'remove'));
  profile.command('show').description('show one profile (secret masked)').argument('[name]').action(run('profile', 'show'));
  profile.command('test').description('check that a profile\'s key is accepted').argument('[name]').action(run('profile', 'test'));

  const sandbox = program.command('sandbox').description('the embedded local sandbox of the service');
  sandbox
    .command('start')
    .description('serve the sandbox on loopback; prints its URL and keys and writes a "sandbox" profile')
    .option('--port <n>', 'port (0 = any free port)', '4010')
    .option('--db <file>', 'SQLite file, or :memory: (default: sandbox.db in the data directory)')
    .option('--rate-limit <n>', 'answer 429 past N requests per second')
    .option('--fault-rate <p>', 'probability 0-1 of a 500 or dropped connection, some after the write was applied')
    .option('--latency <ms>', 'delay every response by this many milliseconds')
    .option('--seed <n>', 'seed for faults and generated data')
    .option('--capture-window <duration>', 'how long an authorized payment may wait for capture (default 5d)')
    .addHelpText('after', '\nExamples:\n  payctl sandbox start\n  payctl sandbox start --port 0 --db :memory: -o json')
    .action(run('sandbox', 'start'));
  sandbox
    .command('pay')
    .description("simulate the customer's checkout for an order")
    .argument('<order_id>', 'order id (order_…)')
    .option('--method <method>', 'card | netbanking | wallet | upi', 'card')
    .option('--fail', 'make the payment fail')
    .option('--email <email>', 'customer e-mail')
    .option('--contact <phone>', 'customer phone')
    .action(run('sandbox', 'pay'));
  const clock = sandbox.command('clock').description('show or move the sandbox clock').action(run('sandbox', 'clock'));
  clock
    .command('advance')
    .description('move sandbox time forward; what falls due happens (auto-refunds)')
    .argument('<duration>', 'e.g. 6d, 24h, 90m, 3600')
    .action(run('sandbox', 'clockAdvance'));
  sandbox.command('reset').description('delete every sandbox resource and counter').action(run('sandbox', 'reset'));
  sandbox
    .command('seed')
    .description('create sample data; prints the ids (payment ids with --authorized)')
    .argument('[n]', 'orders in a realistic mix of states (default 20)')
    .option('--authorized <n>', 'manual-capture orders with one authorized payment each')
    .action(run('sandbox', 'seed'));
  sandbox.command('stats').description('requests seen and writes applied (for tests)').action(run('sandbox', 'stats'));
  sandbox
    .command('customer')
    .description('sandbox customers')
    .command('create')
    .description('create a customer (the service has no create endpoint)')
    .requiredOption('--contact <phone>', 'phone number, e.g. +919876543210')
    .option('--email <email>', 'e-mail')
    .option('--name <name>', 'name')
    .action(run('sandbox', 'customerCreate'));
}

function exitCodeOf(err: unknown, signalName?: 'SIGINT' | 'SIGTERM'): number {
  if (signalName) return signalName === 'SIGTERM' ? 143 : 130;
  const kind = (err as { kind?: ErrorKind })?.kind;
  if (kind === 'interrupted') return (err as { signal?: string }).signal === 'SIGTERM' ? 143 : 130;
  if (kind && kind in EXIT_CODES) return EXIT_CODES[kind];
  return 1;
}

function report(err: unknown, io: IO, json: boolean, debug: boolean) {
  const e = err as { message?: string; hints?: string[]; kind?: string; service?: Record<string, unknown>; toJSON?: () => unknown; stack?: string };
  const lines = [`payctl: ${e?.message ?? String(err)}`];
  const service = e?.service;
  if (service) {
    const extra = ['code', 'reason', 'field', 'source', 'step']
      .filter((k) => service[k] && service[k] !== 'NA')
      .map((k) => `${k}=${String(service[k])}`);
    if (extra.length) lines.push(`  ${extra.join(' ')}`);
  }
  for (const hint of e?.hints ?? []) lines.push(`  ${hint}`);
  if (debug && e?.stack) lines.push(e.stack);
  io.stderr.write(`${lines.join('\n')}\n`);
  if (json) io.stderr.write(`${JSON.stringify({ error: e?.toJSON ? e.toJSON() : { kind: 'failure', message: e?.message ?? String(err) } })}\n`);
}

export async function main(argv: string[], io?: IO, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const streams: IO = io ?? {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    stdinIsTTY: Boolean(process.stdin.isTTY),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
  };
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0); // the reader went away (| head): not our failure
  });
  const controller = new AbortController();
  let signalName: 'SIGINT' | 'SIGTERM' | undefined;
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      if (signalName) process.exit(sig === 'SIGTERM' ? 143 : 130);
      signalName = sig;
      controller.abort();
    });
  }
  let wantJson = false;
  let debug = false;

  const run = (group: keyof typeof handlers, name: string) => async (...params: unknown[]) => {
    const command = params[params.length - 1] as Command;
    const flags = command.optsWithGlobals() as GlobalFlags & Record<string, unknown>;
    debug = Boolean(flags.debug);
    wantJson = flags.output === 'json' || (!flags.output && env.PAYCTL_OUTPUT === 'json');
    const args = (command.processedArgs as unknown[]).flatMap((a) => (Array.isArray(a) ? a : a === undefined ? [] : [a])).map(String);
    const [{ settingsFrom, createRuntime }, { emit }, mod] = await Promise.all([import('./runtime'), import('./emit'), handlers[group]()]);
    const settings = settingsFrom(flags, env, streams);
    wantJson = settings.format === 'json';
    const runtime = createRuntime(settings, env, streams, controller.signal);
    try {
      const handler = (mod as Module)[name] as Handler;
      const result = await handler({ args, opts: command.opts() }, runtime);
      await emit(result, settings, streams);
    } finally {
      await runtime.dispose();
    }
  };

  const program = new Command();
  program.exitOverride();
  program.configureOutput({
    writeOut: (s) => streams.stdout.write(s),
    writeErr: (s) => streams.stderr.write(s),
    outputError: (s, write) => write(s.startsWith('error:') ? `payctl: ${s}` : s),
  });
  declare(program, run);
  // exitOverride and output settings must reach every subcommand, declared after the call above.
  const apply = (cmd: Command) => {
    cmd.exitOverride();
    cmd.configureOutput(program.configureOutput());
    cmd.commands.forEach(apply);
  };
  program.commands.forEach(apply);

  let code = 0;
  try {
    await program.parseAsync(argv, { from: 'user' });
    if (signalName) code = exitCodeOf(undefined, signalName);
  } catch (err) {
    if (err instanceof CommanderError) {
      code = err.exitCode === 0 ? 0 : 2;
    } else {
      code = exitCodeOf(err, signalName);
      if (!(signalName && (err as Error)?.name === 'AbortError')) report(err, streams, wantJson, debug);
    }
  }
  process.exitCode = code;
  // Exit explicitly: a stray keep-alive socket or stdin listener must not keep a finished command alive.
  if (!io) process.stdout.write('', () => process.exit(code));
}
