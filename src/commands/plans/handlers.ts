import { UsageError } from '../../contract/errors';
import { PLAN_PERIODS } from '../../contract/vocabulary';
import type { Context } from '../context';
import { amountFlag, currencyFlag, intFlag, notesFlag } from '../flags';
import { sendOnce } from '../check';
import { one } from '../result';
import type { CommandResult, Input } from '../result';

export async function create({ opts }: Input, ctx: Context): Promise<CommandResult> {
  const period = String(opts.period ?? '');
  if (!(PLAN_PERIODS as readonly string[]).includes(period))
    throw new UsageError(`--period must be one of ${PLAN_PERIODS.join(', ')}: got "${period}"`);
  const currency = currencyFlag(opts.currency);
  const body = {
    period,
    interval: intFlag(opts.interval, '--interval', 1, 10_000),
    item: {
      name: String(opts.name ?? '').trim(),
      amount: amountFlag(opts.amount, currency),
      currency,
      description: opts.description === undefined ? undefined : String(opts.description),
    },
    notes: notesFlag(opts.note),
  };
  if (!body.item.name) throw new UsageError('--name must not be empty');
  const api = await ctx.api();
  const req = api.prepare('createPlan', { body });
  if (ctx.settings.dryRun) return { type: 'dry-run', requests: [req] };
  return one('plan', await sendOnce(api, req));
}
