import type { Command } from 'commander';
import { Option } from 'commander';
import type { Bind } from '../bind';
import { PLAN_PERIODS } from '../../contract/vocabulary';
import { collect, examples } from '../declare';

/** The `plans` commands. */
/** The group's line in `payctl --help`, which declares no more than that. */
export const summary = 'recurring billing plans';

export function declarePlans(program: Command, bind: Bind) {
  program
    .command('plans')
    .description(summary)
    .command('create')
    .description('create a plan')
    .addOption(new Option('--period <period>', 'billing period').choices(PLAN_PERIODS).makeOptionMandatory())
    .requiredOption('--interval <n>', 'periods per billing cycle (3 with monthly = quarterly)')
    .requiredOption('--name <name>', 'display name of the plan item')
    .requiredOption('--amount <amount>', 'amount per cycle in the smallest currency unit (paise)')
    .requiredOption('--currency <code>', 'ISO 4217 code, e.g. INR')
    .option('--description <text>', 'item description')
    .option('--note <key=value>', 'note to attach (repeatable)', collect)
    .addHelpText(
      'after',
      examples(
        'payctl plans create --period monthly --interval 1 --name Gold --amount 49900 --currency INR',
        'payctl plans create --period monthly --interval 3 --name Quarterly ' +
          '--amount 129900 --currency INR --note tier=gold',
      ),
    )
    .action(
      bind(
        async () => (await import('./handlers')).createPlan,
        ({ opts }) => ({
          period: opts.period,
          interval: opts.interval,
          name: opts.name,
          amount: opts.amount,
          currency: opts.currency,
          description: opts.description,
          notes: opts.note ?? [],
        }),
      ),
    );
}
