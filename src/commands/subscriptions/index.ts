import { LIMITS } from '../../contract/limits';
import { group, pageOptions, tool, verb } from '../declare';
import { listOptions, noteOption, withNotes } from '../options';

/**
 * The `subscriptions` commands: the group's line in `payctl --help` (all that a run of another group declares of
 * it), the module of its handlers (imported only when one of them runs), and its commands.
 */
export const subscriptions = group(
  'subscriptions',
  'subscriptions to plans',
  () => import('./handlers'),
  (subscriptions, bind, run) => {
    listOptions(
      verb(subscriptions, 'list', 'list subscriptions, most recent first', [
        'payctl subscriptions list',
        'payctl subscriptions list --plan plan_Jd8x3kQpL2mZ7v --all -o csv',
        'payctl subscriptions list --customer cust_Kq2vX9pLm4Tz8w --all',
      ]),
      `items in one page, 1-${LIMITS.count} (service default 10)`,
      (list) =>
        list
          .option('--plan <id>', 'only subscriptions to this plan (plan_…)')
          .option('--customer <id>', "only this customer's subscriptions (cust_…; payctl filters the pages it reads)"),
    ).action(
      bind(run('listSubscriptions'), ({ opts }) => ({
        ...pageOptions(opts),
        plan: opts.plan,
        customer: opts.customer,
      })),
    );
    verb(subscriptions, 'create', 'subscribe to a plan', [
      'payctl subscriptions create --plan plan_Jd8x3kQpL2mZ7v --total-count 12 --start-at next-month',
      'payctl subscriptions create --plan plan_Jd8x3kQpL2mZ7v --total-count 6 --notify',
      'payctl subscriptions create --plan plan_Jd8x3kQpL2mZ7v --total-count 12 --customer cust_Kq2vX9pLm4Tz8w',
    ])
      .requiredOption('--plan <id>', 'plan id (plan_…)')
      .option('--customer <id>', 'the customer it is for (cust_…)')
      .requiredOption('--total-count <n>', 'number of billing cycles')
      .option('--notify', 'let the service notify the customer (customer_notify=1)')
      .option('--no-notify', 'notify the customer yourself (customer_notify=0)')
      .option(
        '--start-at <time>',
        'first cycle start, in the future: Unix seconds, ISO date/date-time, tomorrow, next-month; default now',
      )
      .addOption(noteOption())
      .action(
        bind(run('createSubscription'), ({ opts }) =>
          withNotes(opts, 'plan', 'customer', 'totalCount', 'notify', 'startAt'),
        ),
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
    verb(subscriptions, 'pause', 'pause an active subscription now: nothing is charged until it is resumed', [
      'payctl subscriptions pause sub_Kq2vX9pLm4Tz8w',
      'payctl subscriptions pause sub_Kq2vX9pLm4Tz8w --yes -o json | jq .status',
    ])
      .argument('<id>', 'subscription id (sub_…)')
      .action(bind(run('pauseSubscription'), ({ args }) => ({ id: args[0]! })));
    verb(subscriptions, 'resume', 'resume a paused subscription now, charged again from its next cycle date', [
      'payctl subscriptions resume sub_Kq2vX9pLm4Tz8w',
      'payctl subscriptions resume sub_Kq2vX9pLm4Tz8w --yes -o json | jq .charge_at',
    ])
      .argument('<id>', 'subscription id (sub_…)')
      .action(bind(run('resumeSubscription'), ({ args }) => ({ id: args[0]! })));
    tool(subscriptions, 'get', 'getSubscription', 'id:subscription_id');
    tool(subscriptions, 'cancel', 'cancelSubscription', 'id:subscription_id', 'at-cycle-end');
    tool(
      subscriptions,
      'list',
      'listSubscriptions',
      'plan:plan_id',
      'customer:customer_id',
      'from',
      'to',
      'count',
      'skip',
    );
  },
);
