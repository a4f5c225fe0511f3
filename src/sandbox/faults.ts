import { setTimeout as sleep } from 'node:timers/promises';
import { seededRandom } from './ids';

/**
 * What goes wrong with one request (--fault-rate): an error or a dropped connection, before the
 * request is applied or after it (the write happened, the client never hears of it).
 */
export type Fault = 'none' | 'error_before' | 'error_after' | 'drop_before' | 'drop_after';

const FAULTS = ['error_before', 'error_after', 'drop_before', 'drop_after'] as const;

export interface FaultOptions {
  faultRate?: number;
  latencyMs?: number;
  /** Makes the faults reproducible. */
  seed?: number;
}

/** Draws the fault of each request and waits the configured latency. */
export function faultInjector(opts: FaultOptions): () => Promise<Fault> {
  const random = seededRandom(opts.seed ?? Date.now());
  return async () => {
    const fault = !opts.faultRate || random() >= opts.faultRate ? 'none' : FAULTS[Math.floor(random() * 4)]!;
    if (opts.latencyMs) await sleep(opts.latencyMs);
    return fault;
  };
}
