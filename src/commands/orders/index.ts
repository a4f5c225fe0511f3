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
  'list, fetch, create and annotate orders',
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
    verb(orders, 'get', 'fetch one order', [
      'payctl orders get order_DBJOWzybf0sJbb',
      'payctl orders get order_DBJOWzybf0sJbb --fields id,status,amount_paid,amount_due,notes -o json',
    ])
      .argument('<id>', 'order id (order_…)')
      .action(bind(run('getOrder'), ({ args: [id] }) => ({ id })));
    verb(orders, 'payments', "the order's payment attempts, most recent first", [
      'payctl orders payments order_DBJOWzybf0sJbb',
      'payctl orders payments order_DBJOWzybf0sJbb -o csv --out attempts.csv',
    ])
      .argument('<id>', 'order id (order_…)')
      .action(bind(run('orderPayments'), ({ args: [id] }) => ({ id })));
    verb(orders, 'edit', "merge notes into an order's (notes are all the service lets change)", [
      'payctl orders edit order_DBJOWzybf0sJbb --note ticket=SUP-1234',
      'payctl orders edit order_DBJOWzybf0sJbb --note ticket=SUP-1234 --note agent=priya -o json',
    ])
      .argument('<id>', 'order id (order_…)')
      .addOption(noteOption(`note to set (repeatable; the order keeps at most ${LIMITS.notesPairs})`))
      .action(bind(run('editOrder'), ({ args: [id], opts }) => ({ id, notes: opts.note ?? [] })));
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
    tool(orders, 'get', 'getOrder', 'id:order_id');
    tool(orders, 'payments', 'listOrderPayments', 'id:order_id');
  },
);
