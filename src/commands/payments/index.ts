import type { Command, OptionValues } from 'commander';
import { Option } from 'commander';
import { LIMITS } from '../../contract/limits';
import { PAYMENT_STATUSES } from '../../contract/vocabulary';
import type { Bind } from '../bind';
import { bulkOptions, collect, examples, pageOptions } from '../declare';
import type { BulkFlags } from './bulk-options';

const bulkFlags = (o: OptionValues): BulkFlags => ({
  input: o.input,
  concurrency: o.concurrency,
  journal: o.journal,
  newRun: Boolean(o.newRun),
  recheck: Boolean(o.recheck),
  skipInvalid: Boolean(o.skipInvalid),
  confirmLive: o.confirmLive,
});

/** The `payments` commands. */
/** The group's line in `payctl --help`, which declares no more than that. */
export const summary = 'list, fetch, capture and refund payments';

export function declarePayments(program: Command, bind: Bind) {
  const payments = program.command('payments').description(summary);
  payments
    .command('list')
    .description('list payments, most recent first')
    .option('--from <time>', 'created at or after: Unix seconds, ISO date/date-time, 7d, 24h, today, yesterday')
    .option('--to <time>', 'created at or before (a bare date includes the whole day)')
    .option('--count <n>', `items in one page, 1-${LIMITS.count}`)
    .option('--skip <n>', 'items to skip')
    .addOption(
      new Option(
        '--status <status>',
        'keep only this status (filtered by payctl: the service has no such filter)',
      ).choices(PAYMENT_STATUSES),
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
    .action(
      bind(
        async () => (await import('./handlers')).listPayments,
        ({ opts }) => ({ ...pageOptions(opts), status: opts.status }),
      ),
    );
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
    .action(
      bind(
        async () => (await import('./handlers')).getPayment,
        ({ args }) => ({ id: args[0]! }),
      ),
    );
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
    .action(
      bind(
        async () => (await import('./capture')).capturePayments,
        ({ args, opts }) => ({ ...bulkFlags(opts), ids: args, amount: opts.amount, currency: opts.currency }),
      ),
    );
  bulkOptions(
    payments
      .command('refund')
      .description('refund a captured payment, in full or in part')
      .argument('[id...]', 'payment id (pay_…)')
      .option('--amount <amount>', 'amount to refund in the smallest currency unit (paise); default: all that remains')
      .option('--receipt <receipt>', `your reference, at most ${LIMITS.receiptChars} characters`)
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
    .action(
      bind(
        async () => (await import('./refund')).refundPayments,
        ({ args, opts }) => ({
          ...bulkFlags(opts),
          ids: args,
          amount: opts.amount,
          receipt: opts.receipt,
          notes: opts.note ?? [],
          retryUnknown: Boolean(opts.retryUnknown),
        }),
      ),
    );
}
