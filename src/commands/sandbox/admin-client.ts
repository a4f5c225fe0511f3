import type { ApiClient } from '../../client/client';

/** The sandbox's own admin API (not part of the service interface), below the origin. */
const ADMIN_PREFIX = '/_sandbox';

export function admin<T = Record<string, unknown>>(
  api: ApiClient,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T> {
  return api.requestFromOrigin<T>(method, `${ADMIN_PREFIX}${path}`, body);
}
