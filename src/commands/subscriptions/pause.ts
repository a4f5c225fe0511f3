import { FailureError } from '../../contract/errors';
import type { SubscriptionRecord } from '../../contract/resources';
import { dryRun, sendOnce } from '../check';
import type { Context } from '../context';
import { idArg } from '../flags';
import { one } from '../result';
import type { CommandResult } from '../result';

export interface SubscriptionIdOptions {
  id: string;
}

/** What each change needs the subscription to be in, and how its question reads. */
const CHANGES = {
  pause: {
    endpoint: 'pauseSubscription',
    body: { pause_at: 'now' },
    from: 'active',
    question: (id: string, plan: string) =>
      `Pause subscription ${id} (plan ${plan}) now? Nothing is charged until it is resumed.`,
  },
  resume: {
    endpoint: 'resumeSubscription',
    body: { resume_at: 'now' },
    from: 'paused',
    question: (id: string, plan: string) => `Resume subscription ${id} (plan ${plan}) now? Its charges start again.`,
  },
} as const;

/**
 * Pause or resume, confirmed like other writes (a person on a terminal, or --yes): the question reads
 * the subscription first, and one in the wrong state is refused before anything is sent.
 */
async function change(which: keyof typeof CHANGES, opts: SubscriptionIdOptions, ctx: Context): Promise<CommandResult> {
  const id = idArg(opts.id, 'subscription');
  const c = CHANGES[which];
  const api = await ctx.api();
  const req =
    c.endpoint === 'pauseSubscription'
      ? api.prepare('pauseSubscription', { params: { id }, body: CHANGES.pause.body })
      : api.prepare('resumeSubscription', { params: { id }, body: CHANGES.resume.body });
  if (ctx.settings.dryRun) return dryRun(req);
  await ctx.confirm(async () => {
    const sub = await api.call<SubscriptionRecord>('getSubscription', { params: { id } });
    if (sub.status !== c.from)
      throw new FailureError(
        `subscription ${id} is ${sub.status}: only ${c.from === 'active' ? 'an active' : 'a paused'} one can be ${which}d; nothing was sent`,
      );
    return c.question(id, sub.plan_id);
  });
  return one('subscription', await sendOnce(api, req));
}

export const pauseSubscription = (opts: SubscriptionIdOptions, ctx: Context) => change('pause', opts, ctx);
export const resumeSubscription = (opts: SubscriptionIdOptions, ctx: Context) => change('resume', opts, ctx);
