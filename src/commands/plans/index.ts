import { Option } from '@commander-js/extra-typings';
import { PLAN_PERIODS } from '../../contract/vocabulary';
import { LIMITS } from '../../contract/limits';
import { group, pageOptions, tool, verb } from '../declare';
import { listOptions, noteOption, withNotes } from '../options';

/**
 * The `plans` commands: the group's line in `payctl --help` (all that a run of another group declares of
 * it), the module of its handlers (imported only when one of them runs), and its commands.
 */
export const plans = group(
  'plans',
  'recurring billing plans',
  () => import('./handlers'),
  (plans, bind, run) => {
    listOptions(
      verb(plans, 'list', 'list plans, most recent first', [
        'payctl plans list',
        'payctl plans list --all -o csv --out plans.csv',
      ]),
      `items in one page, 1-${LIMITS.count} (service default 10)`,
      (list) => list,
    ).action(bind(run('listPlans'), ({ opts }) => pageOptions(opts)));
    verb(plans, 'get', 'fetch a plan', [
      'payctl plans get plan_Jd8x3kQpL2mZ7v',
      'payctl plans get plan_Jd8x3kQpL2mZ7v -o json | jq .item',
    ])
      .argument('<id>', 'plan id (plan_…)')
      .action(bind(run('getPlan'), ({ args }) => ({ id: args[0]! })));
    verb(plans, 'create', 'create a plan', [
      'payctl plans create --period monthly --interval 1 --name Gold --amount 49900 --currency INR',
      'payctl plans create --period monthly --interval 3 --name Quarterly ' +
        '--amount 129900 --currency INR --note tier=gold',
    ])
      .addOption(new Option('--period <period>', 'billing period').choices(PLAN_PERIODS).makeOptionMandatory())
      .requiredOption('--interval <n>', 'periods per billing cycle (3 with monthly = quarterly)')
      .requiredOption('--name <name>', 'display name of the plan item')
      .requiredOption('--amount <amount>', 'amount per cycle in the smallest currency unit (paise)')
      .requiredOption('--currency <code>', 'ISO 4217 code, e.g. INR')
      .option('--description <text>', 'item description')
      .addOption(noteOption())
      .action(
        bind(run('createPlan'), ({ opts }) =>
          withNotes(opts, 'period', 'interval', 'name', 'amount', 'currency', 'description'),
        ),
      );
    tool(plans, 'list', 'listPlans', 'from', 'to', 'count', 'skip');
    tool(plans, 'get', 'getPlan', 'id:plan_id');
  },
);
