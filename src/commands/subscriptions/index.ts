import type { Command } from 'commander';
import type { Bind } from '../bind';
import { collect, examples } from '../declare';

/** The `subscriptions` commands. */
/** The group's line in `payctl --help`, which declares no more than that. */
export const summary = 'subscriptions to plans';

export function declareSubscriptions(program: Command, bind: Bind) {
  const subscriptions = program.command('subscriptions').description(summary);
  subscriptions
    .command('create')
    .description('subscribe to a plan')
    .requiredOption('--plan <id>', 'plan id (plan_…)')
    .requiredOption('--total-count <n>', 'number of billing cycles')
    .option('--notify', 'let the service notify the customer (customer_notify=1)')
    .option('--no-notify', 'notify the customer yourself (customer_notify=0)')
    .option(
      '--start-at <time>',
      'first cycle start, in the future: Unix seconds, ISO date/date-time, tomorrow, next-month; default now',
    )
    .option('--note <key=value>', 'note to attach (repeatable)', collect)
    .addHelpText(
      'after',
      examples(
        'payctl subscriptions create --plan plan_Jd8x3kQpL2mZ7v --total-count 12 --start-at next-month',
        'payctl subscriptions create --plan plan_Jd8x3kQpL2mZ7v --total-count 6 --notify',
      ),
    )
    .action(
      bind(
        async () => (await import('./handlers')).createSubscription,
        ({ opts }) => ({
          plan: opts.plan,
          totalCount: opts.totalCount,
          notify: opts.notify,
          startAt: opts.startAt,
          notes: opts.note ?? [],
        }),
      ),
    );
  subscriptions
    .command('get')
    .description('fetch a subscription')
    .argument('<id>', 'subscription id (sub_…)')
    .addHelpText(
      'after',
      examples(
        'payctl subscriptions get sub_Kq2vX9pLm4Tz8w',
        'payctl subscriptions get sub_Kq2vX9pLm4Tz8w -o json | jq .status',
      ),
    )
    .action(
      bind(
        async () => (await import('./handlers')).getSubscription,
        ({ args }) => ({ id: args[0]! }),
      ),
    );
  subscriptions
    .command('cancel')
    .description('cancel now (nothing more is charged) or at the end of the current cycle')
    .argument('<id>', 'subscription id (sub_…)')
    .option('--at-cycle-end', 'let the current billing period finish first')
    .addHelpText(
      'after',
      examples(
        'payctl subscriptions cancel sub_Kq2vX9pLm4Tz8w',
        'payctl subscriptions cancel sub_Kq2vX9pLm4Tz8w --at-cycle-end',
      ),
    )
    .action(
      bind(
        async () => (await import('./handlers')).cancelSubscription,
        ({ args, opts }) => ({ id: args[0]!, atCycleEnd: Boolean(opts.atCycleEnd) }),
      ),
    );
}
