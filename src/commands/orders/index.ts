import type { Command } from 'commander';
import type { Bind } from '../bind';
import { collect, examples, pageOptions } from '../declare';

/** The `orders` commands. */
/** The group's line in `payctl --help`, which declares no more than that. */
export const summary = 'list and create orders';

export function declareOrders(program: Command, bind: Bind) {
  const orders = program.command('orders').description(summary);
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
    .action(
      bind(
        async () => (await import('./handlers')).listOrders,
        ({ opts }) => ({ ...pageOptions(opts), authorized: Boolean(opts.authorized), receipt: opts.receipt }),
      ),
    );
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
    .action(
      bind(
        async () => (await import('./handlers')).createOrder,
        ({ opts }) => ({
          amount: opts.amount,
          currency: opts.currency,
          receipt: opts.receipt,
          manualCapture: Boolean(opts.manualCapture),
          notes: opts.note ?? [],
        }),
      ),
    );
}
