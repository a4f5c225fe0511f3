import * as z from 'zod/mini';
import { LIMITS } from './limits';
import { queryInt, resourceId } from './common';
import { Plan, Subscription, collectionOf } from './resources';

/** Reads of plans and subscriptions, and the real pause and resume of a subscription. */

const page = () => ({
  count: z.optional(queryInt(1, LIMITS.count)),
  skip: z.optional(queryInt(0)),
  from: z.optional(queryInt(0)),
  to: z.optional(queryInt(0)),
});

export const PlanListQuery = z.lazy(() => z.object(page()));
export const SubscriptionListQuery = z.lazy(() => z.object({ ...page(), plan_id: z.optional(resourceId) }));
/** Only `now` is offered; clients that send nothing mean now too. */
export const PauseBody = z.lazy(() => z.object({ pause_at: z.optional(z.literal('now')) }));
export const ResumeBody = z.lazy(() => z.object({ resume_at: z.optional(z.literal('now')) }));

/** The status each change takes a subscription from, and to: the service refuses it from any other. */
export const SUBSCRIPTION_CHANGES = {
  pause: { from: 'active', to: 'paused' },
  resume: { from: 'paused', to: 'active' },
} as const;

export const billingEndpoints = {
  listPlans: { method: 'GET', path: '/plans', query: PlanListQuery, response: collectionOf(Plan) },
  getPlan: { method: 'GET', path: '/plans/:id', response: Plan },
  listSubscriptions: {
    method: 'GET',
    path: '/subscriptions',
    query: SubscriptionListQuery,
    response: collectionOf(Subscription),
  },
  pauseSubscription: { method: 'POST', path: '/subscriptions/:id/pause', body: PauseBody, response: Subscription },
  resumeSubscription: { method: 'POST', path: '/subscriptions/:id/resume', body: ResumeBody, response: Subscription },
} as const;
