import type { Pool } from 'undici';
import PoolClass from 'undici/lib/dispatcher/pool.js';
import request from 'undici/lib/api/api-request.js';

/**
 * An undici Pool without loading all of undici. undici's index attaches request() to every
 * dispatcher; here it is attached to this one pool only.
 */
export function createPool(origin: string, options: Pool.Options): Pool {
  const pool = new PoolClass(origin, options);
  Object.defineProperty(pool, 'request', { value: request, configurable: true });
  return pool;
}
