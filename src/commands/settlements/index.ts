import { LIMITS } from '../../contract/limits';
import { group, pageOptions, pick, tool, verb } from '../declare';
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
    tool(settlements, 'list', 'listSettlements', 'from', 'to', 'count', 'skip');
    tool(settlements, 'get', 'getSettlement', 'id:settlement_id');
    tool(settlements, 'recon', 'settlementRecon', 'month', 'day', 'settlement:settlement_id');
  },
);
