import { setFlagsFromString } from 'node:v8';
import type { Pool } from 'undici';
import PoolClass from 'undici/lib/dispatcher/pool.js';
import request from 'undici/lib/api/api-request.js';

/**
 * An undici Pool without loading all of undici. undici's index attaches request() to every
 * dispatcher; here it is attached to this one pool only.
 */
export function createPool(origin: string, options: Pool.Options): Pool {
  // undici parses HTTP with llhttp compiled to WebAssembly. V8 then recompiles it with its optimising
  // tier in the background, and a process cannot exit before that job ends: ~80 ms added to every
  // short command. The baseline tier parses a response in microseconds (see the export and bulk
  // benchmarks), so stay on it. Set before the first connection, when undici compiles llhttp.
  setFlagsFromString('--liftoff-only');
  const pool = new PoolClass(origin, options);
  Object.defineProperty(pool, 'request', { value: request, configurable: true });
  return pool;
}
