import { UsageError } from '../../contract/errors';
import type { PlanPeriod } from '../../contract/vocabulary';
import { sendOrShow } from '../check';
import type { Context } from '../context';
import { amountFlag, currencyFlag, intFlag, notesFlag } from '../flags';
import type { CommandResult } from '../result';

export interface CreatePlanOptions {
  period: PlanPeriod;
  interval: string;
  name: string;
  amount: string;
  currency: string;
  description?: string;
  notes: string[];
}

export async function createPlan(opts: CreatePlanOptions, ctx: Context): Promise<CommandResult> {
  const currency = currencyFlag(opts.currency);
  const body = {
    period: opts.period,
    interval: intFlag(opts.interval, '--interval', 1, 10_000),
    item: {
      name: opts.name.trim(),
      amount: amountFlag(opts.amount, currency),
      currency,
      description: opts.description,
    },
    notes: notesFlag(opts.notes),
  };
  if (!body.item.name) throw new UsageError('--name must not be empty');
  const api = await ctx.api();
  return sendOrShow(ctx, api, api.prepare('createPlan', { body }), 'plan');
}
