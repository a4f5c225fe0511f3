import { Option } from '@commander-js/extra-typings';
import { LIMITS } from '../../contract/limits';
import { group, pageOptions, tool, verb } from '../declare';
import { listOptions, noteOption, receiptOption, withNotes } from '../options';

/**
 * The `orders` commands: the group's line in `payctl --help` (all that a run of another group declares of
 * it), the module of its handlers (imported only when one of them runs), and its commands.
 */
export const orders = group(
  'orders',
  'list and create orders',
  () => import('./handlers'),
  (orders, bind, run) => {
    listOptions(
      verb(orders, 'list', 'list orders, most recent first', [
        'payctl orders list --from 7d',
        'payctl orders list --from 2024-04-01 --to 2024-04-30 --tz Asia/Kolkata --out april-orders.xlsx',
        'payctl orders list --receipt rcpt-42 -o json',
      ]),
      `items in one page, 1-${LIMITS.count} (service default 10)`,
      (list) =>
        list
          .addOption(new Option('--authorized', 'only orders with an authorized payment'))
          .addOption(new Option('--receipt <receipt>', 'only orders with this receipt')),
    ).action(
      bind(run('listOrders'), ({ opts }) => ({
        ...pageOptions(opts),
        authorized: Boolean(opts.authorized),
        receipt: opts.receipt,
      })),
    );
    verb(orders, 'create', 'create an order', [
      'payctl orders create --amount 50000 --currency INR --receipt rcpt-42',
      'payctl orders create --amount 50000 --currency INR --manual-capture --note customer=acme',
    ])
      .requiredOption('--amount <amount>', 'amount in the smallest currency unit (paise for INR): 50000 = ₹500.00')
      .requiredOption('--currency <code>', 'ISO 4217 currency code, e.g. INR')
      .addOption(receiptOption())
      .option('--manual-capture', 'authorize only; capture later with `payments capture`')
      .addOption(
        noteOption(
          `note to attach (repeatable, at most ${LIMITS.notesPairs}, values up to ${LIMITS.notesValueChars} characters)`,
        ),
      )
      .action(
        bind(run('createOrder'), ({ opts }) => ({
          ...withNotes(opts, 'amount', 'currency', 'receipt'),
          manualCapture: Boolean(opts.manualCapture),
        })),
      );
    tool(orders, 'list', 'listOrders', 'from', 'to', 'count', 'skip', 'receipt', 'authorized');
    tool(orders, 'create', 'createOrder', 'amount', 'currency', 'receipt', 'manual-capture', 'note');
  },
);
