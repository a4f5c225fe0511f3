import type * as z from 'zod/mini';
import type { EndpointName, endpoints } from '../contract';
import type { RefundKey } from './idempotency';
import type { Store } from './store';

export interface SandboxConfig {
  captureWindowSeconds: number;
}

type Endpoints = typeof endpoints;
type Parsed<E extends EndpointName, K extends 'body' | 'query'> = Endpoints[E] extends {
  [key in K]: infer S extends z.ZodMiniType;
}
  ? z.output<S>
  : Record<string, never>;

/** What a route handler gets: the store, sandbox time, and the request as its endpoint's schemas made it. */
export interface RouteContext<E extends EndpointName = EndpointName> {
  store: Store;
  /** Sandbox time, in Unix seconds. */
  now: number;
  config: SandboxConfig;
  params: Record<string, string>;
  body: Parsed<E, 'body'>;
  query: Parsed<E, 'query'>;
  /** The request's `X-Refund-Idempotency` key, checked, when it carries one and the sandbox honours it. */
  refundKey?: RefundKey;
}

/** What a route answers: its endpoint's response as the contract's schema reads it, so a wrong answer fails typecheck. */
export type Answer<E extends EndpointName> = z.output<Endpoints[E]['response']>;

export type RouteHandler<E extends EndpointName = EndpointName> = (ctx: RouteContext<E>) => Answer<E>;

/** Every endpoint of the contract has its handler: a missing or misnamed one fails typecheck. */
export type RouteTable = { [E in EndpointName]: RouteHandler<E> };
