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
}

export type RouteHandler = (ctx: RouteContext) => unknown;
