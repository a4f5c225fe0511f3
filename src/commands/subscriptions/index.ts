import { group, tool, verb } from '../declare';
import { noteOption, withNotes } from '../options';

/**
 * The `subscriptions` commands: the group's line in `payctl --help` (all that a run of another group declares of
 * it), the module of its handlers (imported only when one of them runs), and its commands.
 */
export const subscriptions = group(
  'subscriptions',
  'subscriptions to plans',
  () => import('./handlers'),
  (subscriptions, bind, run) => {
    verb(subscriptions, 'create', 'subscribe to a plan', [
      'payctl subscriptions create --plan plan_Jd8x3kQpL2mZ7v --total-count 12 --start-at next-month',
      'payctl subscriptions create --plan plan_Jd8x3kQpL2mZ7v --total-count 6 --notify',
    ])
      .requiredOption('--plan <id>', 'plan id (plan_…)')
      .requiredOption('--total-count <n>', 'number of billing cycles')
      .option('--notify', 'let the service notify the customer (customer_notify=1)')
      .option('--no-notify', 'notify the customer yourself (customer_notify=0)')
      .option(
        '--start-at <time>',
        'first cycle start, in the future: Unix seconds, ISO date/date-time, tomorrow, next-month; default now',
      )
      .addOption(noteOption())
      .action(
        bind(run('createSubscription'), ({ opts }) => withNotes(opts, 'plan', 'totalCount', 'notify', 'startAt')),
      );
    verb(subscriptions, 'get', 'fetch a subscription', [
      'payctl subscriptions get sub_Kq2vX9pLm4Tz8w',
      'payctl subscriptions get sub_Kq2vX9pLm4Tz8w -o json | jq .status',
    ])
      .argument('<id>', 'subscription id (sub_…)')
      .action(bind(run('getSubscription'), ({ args }) => ({ id: args[0]! })));
    verb(subscriptions, 'cancel', 'cancel now (nothing more is charged) or at the end of the current cycle', [
      'payctl subscriptions cancel sub_Kq2vX9pLm4Tz8w',
      'payctl subscriptions cancel sub_Kq2vX9pLm4Tz8w --at-cycle-end',
    ])
      .argument('<id>', 'subscription id (sub_…)')
      .option('--at-cycle-end', 'let the current billing period finish first')
      .action(
        bind(run('cancelSubscription'), ({ args, opts }) => ({ id: args[0]!, atCycleEnd: Boolean(opts.atCycleEnd) })),
      );
    tool(subscriptions, 'get', 'getSubscription', 'id:subscription_id');
    tool(subscriptions, 'cancel', 'cancelSubscription', 'id:subscription_id', 'at-cycle-end');
  },
);
