import { SUBSCRIPTION_CHANGES } from '../../contract/billing-endpoints';
import { FailureError } from '../../contract/errors';
import type { SubscriptionRecord } from '../../contract/resources';
import type { Prepared } from '../../client/client';
import { dryRun, sendOnce } from '../check';
import type { Context } from '../context';
import { idArg } from '../flags';
import { one } from '../result';
import type { CommandResult } from '../result';

export interface SubscriptionIdOptions {
  id: string;
}

const QUESTIONS = {
  pause: 'now? Nothing is charged until it is resumed.',
  resume: 'now? Its charges start again on its next cycle date.',
};

/**
 * Pause or resume, confirmed like other writes (a person on a terminal, or --yes): the question reads
 * the subscription first, and one in a status the change cannot start from is refused before anything
 * is sent.
 */
async function change(
  which: keyof typeof SUBSCRIPTION_CHANGES,
  id: string,
  req: Prepared,
  ctx: Context,
): Promise<CommandResult> {
  if (ctx.settings.dryRun) return dryRun(req);
  const api = await ctx.api();
  const { from } = SUBSCRIPTION_CHANGES[which];
  await ctx.confirm(async () => {
    const sub = await api.call<SubscriptionRecord>('getSubscription', { params: { id } });
    if (sub.status !== from)
      throw new FailureError(
        `subscription ${id} is ${sub.status}: only ${from === 'active' ? 'an' : 'a'} ${from} one can be ${which}d; nothing was sent`,
      );
    const verb = which === 'pause' ? 'Pause' : 'Resume';
    return `${verb} subscription ${id} (plan ${sub.plan_id}) ${QUESTIONS[which]}`;
  });
  return one('subscription', await sendOnce(api, req));
}

export async function pauseSubscription(opts: SubscriptionIdOptions, ctx: Context): Promise<CommandResult> {
  const id = idArg(opts.id, 'subscription');
  const req = (await ctx.api()).prepare('pauseSubscription', { params: { id }, body: { pause_at: 'now' } });
  return change('pause', id, req, ctx);
}

export async function resumeSubscription(opts: SubscriptionIdOptions, ctx: Context): Promise<CommandResult> {
  const id = idArg(opts.id, 'subscription');
  const req = (await ctx.api()).prepare('resumeSubscription', { params: { id }, body: { resume_at: 'now' } });
  return change('resume', id, req, ctx);
}
