import { Option } from '@commander-js/extra-typings';
import { LIMITS } from '../../contract/limits';
import { INR } from '../../contract/vocabulary';
import { group, pageOptions, pick, tool, verb } from '../declare';
import { customerOption, noteOption, withNotes } from '../options';

/** Wallet amounts are paise: the wallet holds rupees only. */
const amountOption = (help = 'amount in paise (10000 = ₹100.00)') =>
  new Option('--amount <amount>', help).makeOptionMandatory();

/**
 * The `wallet` commands: the group's line in `payctl --help` (all that a run of another group declares of
 * it), the module of its handlers (imported only when one of them runs), and its commands.
 */
export const wallet = group(
  'wallet',
  `customer wallet (discontinued product, April 2023; ${INR} only)`,
  () => import('./handlers'),
  (wallet, bind, run) => {
    verb(wallet, 'transfer', "move a captured payment's money into a customer's wallet", [
      'payctl wallet transfer pay_29QQoUBi66xm2f --customer cust_4xbQrmEoA5q1fP --amount 20000',
      'payctl wallet transfer pay_29QQoUBi66xm2f --customer cust_4xbQrmEoA5q1fP ' +
        '--amount 5000 --note reason=goodwill --yes',
    ])
      .argument('<payment_id>', 'captured payment (pay_…)')
      .addOption(customerOption())
      .addOption(amountOption('amount in paise (20000 = ₹200.00), at most the captured amount'))
      .addOption(noteOption())
      .action(
        bind(run('transferPayment'), ({ args, opts }) => ({
          paymentId: args[0]!,
          ...withNotes(opts, 'customer', 'amount'),
        })),
      );
    verb(wallet, 'credit', 'credit a wallet directly (cashback; no payment consumed)', [
      'payctl wallet credit --customer cust_4xbQrmEoA5q1fP --amount 5000 --note reason=cashback',
      'payctl wallet credit --customer cust_4xbQrmEoA5q1fP --amount 10000 --yes',
    ])
      .addOption(customerOption())
      .addOption(amountOption())
      .addOption(noteOption())
      .action(bind(run('creditWallet'), ({ opts }) => withNotes(opts, 'customer', 'amount')));
    verb(wallet, 'pay', "pay an order from a customer's wallet balance", [
      'payctl wallet pay --customer cust_4xbQrmEoA5q1fP --order order_DBJOWzybf0sJbb ' +
        '--amount 10000 --contact +919876543210 --email a@example.com',
      'payctl wallet pay --customer cust_4xbQrmEoA5q1fP --order order_DBJOWzybf0sJbb ' +
        '--amount 10000 --contact 9876543210 --email a@example.com --yes',
    ])
      .addOption(customerOption())
      .requiredOption('--order <id>', 'order (order_…)')
      .addOption(amountOption())
      .requiredOption('--contact <phone>', 'customer phone, e.g. +919876543210')
      .requiredOption('--email <email>', 'customer e-mail')
      .option('--description <text>', 'description')
      .addOption(noteOption())
      .action(
        bind(run('payFromWallet'), ({ opts }) =>
          withNotes(opts, 'customer', 'order', 'amount', 'contact', 'email', 'description'),
        ),
      );
    verb(wallet, 'balance', 'wallet balance, monthly usage and maximum', [
      'payctl wallet balance cust_4xbQrmEoA5q1fP',
      'payctl wallet balance cust_4xbQrmEoA5q1fP -o json | jq .balance',
    ])
      .argument('<customer>', 'customer (cust_…)')
      .action(bind(run('showBalance'), ({ args }) => ({ customer: args[0]! })));
    verb(
      wallet,
      'statement',
      'wallet statement entries (most recent first, or --oldest-first); several customers or --input for an export',
      [
        'payctl wallet statement cust_4xbQrmEoA5q1fP --from last-month ' +
          '--to last-month --oldest-first --out statement.xlsx',
        'payctl wallet statement --input customers.txt --from 2024-04-01 --to 2024-04-30 ' +
          '--tz Asia/Kolkata --skip-missing --out april.csv',
        'payctl wallet statement cust_4xbQrmEoA5q1fP --from 7d',
      ],
    )
      .argument('[customer...]', 'customer ids (cust_…)')
      .option('--input <file>', 'customer ids, one per line (- for stdin)')
      .option(
        '--from <time>',
        'entries at or after: Unix seconds, ISO date/date-time, 7d, today, this-month, last-month',
      )
      .option('--to <time>', 'entries at or before (a bare date includes the whole day)')
      .option('--count <n>', `entries in one page, 1-${LIMITS.count}`)
      .option('--skip <n>', 'entries to skip')
      .option('--all', 'walk every page')
      .option('--limit <n>', 'with --all or --out, stop after N entries per customer')
      .option('--oldest-first', 'ledger order: oldest entry first (with --all or --out)')
      .option('--skip-missing', 'export the other customers when some are unknown or have no wallet, and list those')
      .action(
        bind(run('exportStatement'), ({ args: [customers], opts }) => ({
          ...pageOptions(opts),
          customers,
          input: opts.input,
          oldestFirst: Boolean(opts.oldestFirst),
          skipMissing: Boolean(opts.skipMissing),
        })),
      );
    const fundAccount = wallet.command('fund-account').description('bank accounts for payouts');
    verb(fundAccount, 'create', 'add a bank account for a customer', [
      'payctl wallet fund-account create --customer cust_4xbQrmEoA5q1fP --name "Gaurav Kumar" ' +
        '--ifsc HDFC0000053 --account-number 765432123456789',
      'payctl wallet fund-account create --customer cust_4xbQrmEoA5q1fP --name "Asha Rao" ' +
        '--ifsc SBIN0000001 --account-number 11112222333 -o json',
    ])
      .addOption(customerOption())
      .requiredOption('--name <name>', 'account holder name as per bank records')
      .requiredOption('--ifsc <code>', 'bank IFSC code')
      .requiredOption('--account-number <digits>', 'beneficiary account number')
      .action(bind(run('createFundAccount'), ({ opts }) => pick(opts, 'customer', 'name', 'ifsc', 'accountNumber')));
    verb(wallet, 'payout', "pay out from a customer's wallet to their bank account", [
      'payctl wallet payout cust_4xbQrmEoA5q1fP --fund-account fa_Lm3nB7vC9xZq2w --amount 10000 --purpose refund',
      'payctl wallet payout cust_4xbQrmEoA5q1fP --fund-account fa_Lm3nB7vC9xZq2w ' +
        '--amount 10000 --purpose cashback --narration "Acme refund" --yes',
    ])
      .argument('<customer>', 'customer (cust_…)')
      .requiredOption('--fund-account <id>', 'fund account (fa_…)')
      .addOption(amountOption())
      .requiredOption('--purpose <purpose>', 'reason, e.g. refund, cashback, payout')
      .option('--reference-id <ref>', `your reference, at most ${LIMITS.referenceIdChars} characters`)
      .option('--narration <text>', `bank statement text: at most ${LIMITS.narrationChars} of a-z A-Z 0-9 space`)
      .addOption(noteOption())
      .action(
        bind(run('createPayout'), ({ args, opts }) => ({
          customer: args[0]!,
          ...withNotes(opts, 'fundAccount', 'amount', 'purpose', 'referenceId', 'narration'),
        })),
      );
    tool(wallet, 'balance', 'getWalletBalance', 'customer:customer_id');
    tool(wallet, 'statement', 'getWalletStatement', 'customer:customer_id', 'from', 'to', 'count', 'skip');
    tool(wallet, 'transfer', 'transferPayment', 'payment_id', 'customer:customer_id', 'amount', 'note');
    tool(wallet, 'credit', 'createDirectTransfer', 'customer:customer_id', 'amount', 'note');
    tool(
      wallet,
      'payout',
      'createPayout',
      'customer:customer_id',
      'fund-account:fund_account_id',
      'amount',
      'purpose',
      'reference-id',
      'narration',
      'note',
    );
  },
);
