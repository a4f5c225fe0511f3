import type { BodyOf } from '../../contract/endpoints';
import { UsageError } from '../../contract/errors';
import { sendOrShow } from '../check';
import type { Context } from '../context';
import { idArg, intFlag, notesFlag, timeFlag } from '../flags';
import type { CommandResult } from '../result';
import { exportProgress, listing, listResult, pageQuery } from '../listing';
import type { PageOptions } from '../listing';

/** The service refuses a first cycle in the past; a minute's slack for clocks that disagree a little. */
const START_SLACK_SECONDS = 60;

export interface CreateSubscriptionOptions {
  plan: string;
  /** The customer it is for (customer_id); else the service links the one who authorises it. */
  customer?: string;
  totalCount: string;
  /** --notify / --no-notify; neither leaves the service's default. */
  notify?: boolean;
  startAt?: string;
  notes: string[];
}

export async function createSubscription(opts: CreateSubscriptionOptions, ctx: Context): Promise<CommandResult> {
  const plan = idArg(opts.plan, 'plan');
  const totalCount = intFlag(opts.totalCount, '--total-count', 1, 10_000);
  const startAt = await timeFlag(ctx, opts.startAt, '--start-at', 'start');
  if (startAt !== undefined && startAt < Math.floor(ctx.nowMs() / 1000) - START_SLACK_SECONDS)
    throw new UsageError(`--start-at must not be in the past: got ${JSON.stringify(opts.startAt)}`);
  const body: BodyOf<'createSubscription'> = {
    plan_id: plan,
    customer_id: opts.customer === undefined ? undefined : idArg(opts.customer, 'customer'),
    total_count: totalCount,
    customer_notify: opts.notify === undefined ? undefined : opts.notify ? 1 : 0,
    start_at: startAt,
    notes: notesFlag(opts.notes),
  };
  const api = await ctx.api();
  return sendOrShow(ctx, api, api.prepare('createSubscription', { body }), 'subscription');
}

export interface GetSubscriptionOptions {
  id: string;
}

export async function getSubscription(opts: GetSubscriptionOptions, ctx: Context): Promise<CommandResult> {
  const api = await ctx.api();
  const req = api.prepare('getSubscription', { params: { id: idArg(opts.id, 'subscription') } });
  return sendOrShow(ctx, api, req, 'subscription');
}

export interface CancelSubscriptionOptions {
  id: string;
  atCycleEnd: boolean;
}

export async function cancelSubscription(opts: CancelSubscriptionOptions, ctx: Context): Promise<CommandResult> {
  const api = await ctx.api();
  const req = api.prepare('cancelSubscription', {
    params: { id: idArg(opts.id, 'subscription') },
    body: { cancel_at_cycle_end: opts.atCycleEnd ? 1 : 0 },
  });
  return sendOrShow(ctx, api, req, 'subscription');
}

export interface ListSubscriptionsOptions extends PageOptions {
  plan?: string;
  /** Only this customer's: payctl keeps the rows whose customer_id is theirs (the list has no such filter). */
  customer?: string;
}

export async function listSubscriptions(opts: ListSubscriptionsOptions, ctx: Context): Promise<CommandResult> {
  const plan = opts.plan === undefined ? undefined : idArg(opts.plan, 'plan');
  const customer = opts.customer === undefined ? undefined : idArg(opts.customer, 'customer');
  const keep =
    customer === undefined ? undefined : (s: unknown) => (s as { customer_id?: unknown }).customer_id === customer;
  const page = await pageQuery(ctx, opts, 'subscription');
  const progress = exportProgress(ctx, page);
  const result = await listing(ctx, 'listSubscriptions', page, { plan_id: plan }, undefined, progress, keep);
  return 'dryRun' in result ? result.dryRun : listResult(ctx, 'subscription', 'subscriptions', page, result, progress);
}

export { pauseSubscription, resumeSubscription } from './pause';
