import { LIMITS } from '../../contract/limits';
import { Option } from '@commander-js/extra-typings';
import { collect, group, lazy, pageOptions, pick, tool, verb } from '../declare';
import { listOptions } from '../options';

/**
 * The `settlements` commands: the group's line in `payctl --help` (all that a run of another group
 * declares of it), the module of its handlers (imported only when one of them runs), and its commands.
 */
export const settlements = group(
  'settlements',
  'bank deposits, and the monthly reconciliation that ties each to its payments, refunds, fees and tax',
  () => import('./handlers'),
  (settlements, bind, run) => {
    listOptions(
      verb(settlements, 'list', 'list settlements (deposits to the bank), most recent first', [
        'payctl settlements list --from 30d',
        'payctl settlements list --from 2024-04-01 --to 2024-04-30 --tz Asia/Kolkata --out april-settlements.csv',
      ]),
      `items in one page, 1-${LIMITS.count} (service default 10)`,
      (list) => list,
    ).action(bind(run('listSettlements'), ({ opts }) => pageOptions(opts)));
    verb(settlements, 'get', 'fetch one settlement', [
      'payctl settlements get setl_DGlQ1Rj8os78Ec',
      'payctl settlements get setl_DGlQ1Rj8os78Ec -o json',
    ])
      .argument('<id>', 'settlement id (setl_…)')
      .action(bind(run('getSettlement'), ({ args }) => ({ id: args[0]! })));
    verb(
      settlements,
      'recon',
      "a month's (or a day's) settled payments and refunds, one row each, checked to add up to every deposit; " +
        'payments captured but not yet settled are listed as such',
      [
        'payctl settlements recon --month 2024-04 --tz Asia/Kolkata --out recon-2024-04.xlsx',
        'payctl settlements recon --month 2024-04 --day 15 -o csv > recon-2024-04-15.csv',
        'payctl settlements recon --settlement setl_DGlQ1Rj8os78Ec',
      ],
    )
      .option(
        '--month <YYYY-MM>',
        'the month whose settlements to reconcile (days in Asia/Kolkata, as the service counts them)',
      )
      .option('--day <D>', 'only the settlements of this day of the month')
      .option('--settlement <id>', "only this settlement's rows (its month, when --month is not given)")
      .action(bind(run('reconcile'), ({ opts }) => pick(opts, 'month', 'day', 'settlement')));
    verb(
      settlements,
      'match',
      "bank statements (MT940, CAMT.053, netbanking CSV) tied to the period's settlements: each settlement in the bank " +
        'for its amount, each credit from the service explained; exit 1 names every finding',
      [
        'payctl settlements match --bank march.sta --month 2031-03 --tz Asia/Kolkata',
        'payctl settlements match --bank march.xml --bank april.xml --month 2031-03 --out match-2031-03.xlsx',
        'payctl settlements match --bank march.csv --from 2031-03-01 --to 2031-03-15 --all-credits  # exits 1: a customer paid in directly',
        'payctl settlements match --bank march.csv --month 2031-03 --columns date=1,narration=2,ref=3,withdrawal=5,deposit=6,balance=7',
      ],
    )
      .requiredOption('--bank <file>', 'a bank statement (repeat for several)', collect)
      .option(
        '--month <YYYY-MM>',
        'the month whose settlements to match (days in Asia/Kolkata, as the service counts them)',
      )
      .option('--from <time>', 'with --to: the settlements made from this time')
      .option('--to <time>', 'with --from: the settlements made up to this time')
      .addOption(
        new Option('--format <format>', "the statements' format (default: found from each file's content)").choices([
          'mt940',
          'camt053',
          'csv',
        ]),
      )
      .option(
        '--columns <map>',
        'a CSV layout not recognised by its header: ROLE=COLUMN pairs (roles date, narration, ref, value, ' +
          'withdrawal, deposit, balance; a column is its header or its number from 1)',
      )
      .option(
        '--window <days>',
        "days a credit's value date may fall after its settlement's day (weekends, holidays)",
        '4',
      )
      .option('--all-credits', 'every credit that matches no settlement is a finding, not only those from the service')
      .action(
        bind(lazy(() => import('./match'))('matchSettlements'), ({ opts }) => ({
          ...pick(opts, 'bank', 'month', 'from', 'to', 'format', 'columns', 'window'),
          allCredits: Boolean(opts.allCredits),
        })),
      );
    tool(settlements, 'list', 'listSettlements', 'from', 'to', 'count', 'skip');
    tool(settlements, 'get', 'getSettlement', 'id:settlement_id');
    tool(settlements, 'recon', 'settlementRecon', 'month', 'day', 'settlement:settlement_id');
  },
);
