import type { Store } from './store';

/** Sandbox time: the wall clock plus the offset `sandbox clock advance` adds, kept in the database. */
export interface SandboxClock {
  /** Sandbox time, in Unix seconds. */
  now(): number;
  offset(): number;
  advance(seconds: number): void;
}

export function sandboxClock(store: Store): SandboxClock {
  const offset = () => Number(store.meta('clock_offset') ?? 0);
  return {
    now: () => Math.floor(Date.now() / 1000) + offset(),
    offset,
    advance(seconds) {
      store.tx(() => store.setMeta('clock_offset', String(offset() + seconds)));
    },
  };
}
