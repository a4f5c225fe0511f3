import type { Emit } from './events';
import type { Store } from './store';

export interface SandboxConfig {
  captureWindowSeconds: number;
}

/** What a route handler gets: the store, sandbox time, and the validated request. */
export interface RouteContext {
  store: Store;
  now: number;
  config: SandboxConfig;
  params: Record<string, string>;
  body: Record<string, unknown>;
  query: Record<string, unknown>;
  /** Records an event and sends it to the webhook, if one is set. */
  emit: Emit;
}

export type RouteHandler = (ctx: RouteContext) => unknown;
