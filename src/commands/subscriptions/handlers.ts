import type { Context } from '../context';
import { idArg, intFlag, notesFlag, timeFlag } from '../flags';
import { sendOnce } from '../check';
import { one } from '../result';
import type { CommandResult, Input } from '../result';

export async function create({ opts }: Input, ctx: Context): Promise<CommandResult> {
  const body = {
    plan_id: idArg(opts.plan, 'plan'),
    total_count: intFlag(opts.totalCount, '--total-count', 1, 10_000),
    customer_notify: opts.notify === undefined ? undefined : opts.notify ? 1 : 0,
    start_at: await timeFlag(ctx, opts.startAt, '--start-at', 'start'),
    notes: notesFlag(opts.note),
  };
  const api = await ctx.api();
  const req = api.prepare('createSubscription', { body });
  if (ctx.settings.dryRun) return { type: 'dry-run', requests: [req] };
  return one('subscription', await sendOnce(api, req));
}

export async function get({ args }: Input, ctx: Context): Promise<CommandResult> {
  const api = await ctx.api();
  const req = api.prepare('getSubscription', { params: { id: idArg(args[0], 'subscription') } });
  if (ctx.settings.dryRun) return { type: 'dry-run', requests: [req] };
  return one('subscription', await api.execute(req));
}

export async function cancel({ args, opts }: Input, ctx: Context): Promise<CommandResult> {
  const api = await ctx.api();
  const req = api.prepare('cancelSubscription', {
    params: { id: idArg(args[0], 'subscription') },
    body: { cancel_at_cycle_end: opts.atCycleEnd ? 1 : 0 },
  });
  if (ctx.settings.dryRun) return { type: 'dry-run', requests: [req] };
  return one('subscription', await sendOnce(api, req));
}
