import { Option } from '@commander-js/extra-typings';
import { LIMITS } from '../../contract/limits';
import { PAYMENT_STATUSES } from '../../contract/vocabulary';
import { group, lazy, pageOptions, pick, tool, verb } from '../declare';
import { bulkOptions, listOptions, noteOption, receiptOption, withNotes } from '../options';
import type { Parsed } from '../bind';
import type { BulkFlags } from './bulk-options';

/** The options `bulkOptions` declares, and --read, as commander parses them. */
type BulkParsed = {
  input?: string;
  concurrency?: string;
  journal?: string;
  confirmLive?: string;
  read?: true;
  newRun?: true;
  recheck?: true;
  skipInvalid?: true;
};

/** The payment ids and the flags of `bulkOptions`, as a capture or refund takes them. */
const bulkRun = ({
  args: [ids],
  opts,
}: Parsed<[string[]], BulkParsed>): BulkFlags & { ids: string[]; read: boolean } => ({
  ids,
  ...pick(opts, 'input', 'concurrency', 'journal', 'confirmLive'),
  read: Boolean(opts.read),
  newRun: Boolean(opts.newRun),
  recheck: Boolean(opts.recheck),
  skipInvalid: Boolean(opts.skipInvalid),
});

const capture = lazy(() => import('./capture'));
const refund = lazy(() => import('./refund'));

/**
 * The `payments` commands: the group's line in `payctl --help` (all that a run of another group declares of
 * it), the module of its handlers (imported only when one of them runs), and its commands.
 */
export const payments = group(
  'payments',
  'list, find, fetch, capture, refund and annotate payments',
  () => import('./handlers'),
  (payments, bind, run) => {
    listOptions(
      verb(payments, 'list', 'list payments, most recent first', [
        'payctl payments list --status authorized',
        'payctl payments list --from 2024-01-01 --to 2024-03-31 --tz Asia/Kolkata --out q1-payments.csv',
        'payctl payments list --email priya@example.com --from 30d',
        'payctl payments list --contact 9876543210 --method upi --limit 5',
      ]),
      `items in one page, 1-${LIMITS.count}`,
      (list) =>
        list
          .addOption(
            new Option(
              '--status <status>',
              'keep only this status (filtered by payctl: the service has no such filter)',
            ).choices(PAYMENT_STATUSES),
          )
          .option('--email <email>', "keep only this customer's e-mail, whatever its case (filtered by payctl)")
          .option('--contact <phone>', 'keep only this phone number, matched by its digits (filtered by payctl)')
          .option('--order <id>', "keep only this order's payments (filtered by payctl; see also `orders payments`)")
          .option('--method <method>', 'keep only this method: card, netbanking, wallet, upi… (filtered by payctl)'),
    ).action(
      bind(run('listPayments'), ({ opts }) => ({
        ...pageOptions(opts),
        ...pick(opts, 'status', 'email', 'contact', 'order', 'method'),
      })),
    );
    verb(payments, 'get', 'fetch payments by id: one, many, or a file of them (streamed in input order)', [
      'payctl payments get pay_29QQoUBi66xm2f',
      'payctl payments get pay_29QQoUBi66xm2f -o json | jq .amount_refunded',
      'payctl payments get pay_29QQoUBi66xm2f pay_29QQoUBi66xm2g --fields id,status,amount,amount_refunded',
      'payctl payments list --status captured -o csv | payctl payments get --input - -o ndjson',
    ])
      .argument('[id...]', 'payment id (pay_…)')
      .option('--input <file>', "ids to read: one a line, or payctl's own JSON, NDJSON or CSV output; - for stdin")
      .option('--concurrency <n>', 'requests in flight at once for many ids, 1-64 (default 16)')
      .action(bind(run('getPayment'), ({ args: [ids], opts }) => ({ ids, ...pick(opts, 'input', 'concurrency') })));
    verb(payments, 'edit', "merge notes into a payment's (notes are all the service lets change)", [
      'payctl payments edit pay_29QQoUBi66xm2f --note ticket=SUP-1234',
      'payctl payments edit pay_29QQoUBi66xm2f --note ticket=SUP-1234 --note agent=priya -o json',
    ])
      .argument('<id>', 'payment id (pay_…)')
      .addOption(noteOption(`note to set (repeatable; the payment keeps at most ${LIMITS.notesPairs})`))
      .action(bind(run('editPayment'), ({ args: [id], opts }) => ({ id, notes: opts.note ?? [] })));
    bulkOptions(
      verb(
        payments,
        'capture',
        'capture an authorized payment (its full amount unless --amount/--currency are given)',
        [
          'payctl payments capture                     # on a terminal: guided, step by step',
          'payctl payments capture pay_29QQoUBi66xm2f --amount 50000 --currency INR --yes',
          'payctl payments capture --input authorized.csv --yes --concurrency 16',
        ],
      )
        .argument('[id...]', 'payment id (pay_…)')
        .option('--amount <amount>', 'must equal the payment amount, smallest currency unit (paise)')
        .option('--currency <code>', 'must equal the payment currency')
        .option(
          '--read',
          "with --dry-run: read the payments now; one payment's plan shows the exact amount it would capture, many are totalled",
        ),
    ).action(bind(capture('capturePayments'), (p) => ({ ...bulkRun(p), ...pick(p.opts, 'amount', 'currency') })));
    bulkOptions(
      verb(payments, 'refund', 'refund a captured payment, in full or in part', [
        'payctl payments refund                      # on a terminal: guided, step by step',
        'payctl payments refund pay_29QQoUBi66xm2f --amount 20000 --note reason=damaged',
        'payctl payments refund --input refunds.csv --yes',
      ])
        .argument('[id...]', 'payment id (pay_…)')
        .option(
          '--amount <amount>',
          'amount to refund in the smallest currency unit (paise); default: all that remains',
        )
        .addOption(receiptOption())
        .addOption(noteOption())
        .option(
          '--read',
          "with --dry-run: read the payments now; one payment's plan shows the exact amount and key it would refund with, many are totalled",
        ),
    )
      .option(
        '--retry-unknown',
        'resend, with the same key, refunds whose outcome the journal marks unknown where the service lists no refunds',
      )
      .option(
        '--idempotency-key <key>',
        "one refund's identity (10-64 of A-Z a-z 0-9 _ -): rerun an unknown refund with the key payctl printed",
      )
      .action(
        bind(refund('refundPayments'), (p) => ({
          ...bulkRun(p),
          ...withNotes(p.opts, 'amount', 'receipt'),
          retryUnknown: Boolean(p.opts.retryUnknown),
          ...pick(p.opts, 'idempotencyKey'),
        })),
      );
    tool(
      payments,
      'list',
      'listPayments',
      'from',
      'to',
      'count',
      'skip',
      'status',
      'email',
      'contact',
      'order',
      'method',
    );
    tool(payments, 'get', 'getPayment', 'id:payment_id');
    tool(payments, 'capture', 'capturePayment', 'id:payment_id', 'amount', 'currency');
    tool(payments, 'refund', 'refundPayment', 'id:payment_id', 'amount', 'receipt', 'note', 'idempotency-key');
  },
);
