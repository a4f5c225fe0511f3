import { UsageError } from '../../contract/errors';
import type { PlanPeriod } from '../../contract/vocabulary';
import { sendOrShow } from '../check';
import type { Context } from '../context';
import { amountFlag, currencyFlag, idArg, intFlag, notesFlag } from '../flags';
import { exportProgress, listing, listResult, pageQuery } from '../listing';
import type { PageOptions } from '../listing';
import type { CommandResult } from '../result';

export async function listPlans(opts: PageOptions, ctx: Context): Promise<CommandResult> {
  const page = await pageQuery(ctx, opts, 'plan');
  const progress = exportProgress(ctx, page);
  const result = await listing(ctx, 'listPlans', page, {}, undefined, progress);
  return 'dryRun' in result ? result.dryRun : listResult(ctx, 'plan', 'plans', page, result, progress);
}

export async function getPlan(opts: { id: string }, ctx: Context): Promise<CommandResult> {
  const api = await ctx.api();
  return sendOrShow(ctx, api, api.prepare('getPlan', { params: { id: idArg(opts.id, 'plan') } }), 'plan');
}

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
