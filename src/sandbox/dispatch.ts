import * as z from 'zod/mini';
import { describeIssue, endpoints, matchPath } from '../contract';
import type { Endpoint, EndpointName } from '../contract';
import type { RouteContext } from './context';
import type { RefundKey } from './idempotency';
import { SandboxError, unknownUrl } from './errors';
import { routes } from './routes';
import { refuseUnknownFields } from './strict';
import { parseJson } from './transport';

/** A fetch by id takes no query parameters: any one sent is refused like an unknown body field. */
const NO_QUERY = z.object({});

/** The input as the schema makes it; an unknown field or an invalid value is refused as the service does. */
function validated(schema: z.ZodMiniType, input: unknown): unknown {
  refuseUnknownFields(schema, input);
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const field = result.error.issues[0]?.path.map(String).join('.') || undefined;
  throw new SandboxError(describeIssue(result.error, input), 400, field);
}

/** The endpoint of the contract a request names, with its path parameters. */
export function findEndpoint(method: string, path: string) {
  for (const [name, endpoint] of Object.entries(endpoints)) {
    const params = endpoint.method === method ? matchPath(endpoint.path, path) : null;
    if (params) return { name: name as EndpointName, params };
  }
  return undefined;
}

export interface ServiceRequest {
  method: string;
  /** The path after /v1. */
  path: string;
  query: URLSearchParams;
  rawBody: string;
  refundKey?: RefundKey;
}

type Served = Omit<RouteContext, 'params' | 'body' | 'query' | 'refundKey'>;

/**
 * Finds the endpoint, checks the request against its schemas and runs its handler. `serve` gives the
 * store, config and sandbox time once the request is known to name an endpoint, after due work is done.
 */
export function dispatch(request: ServiceRequest, serve: () => Served): unknown {
  const found = findEndpoint(request.method, request.path);
  if (!found) throw unknownUrl();
  const endpoint: Endpoint = endpoints[found.name];
  const hasBody = request.method !== 'GET';
  const json = hasBody ? parseJson(request.rawBody, true) : {};
  const context = serve();
  const body = hasBody && endpoint.body ? validated(endpoint.body, json) : json;
  const query = validated(endpoint.query ?? NO_QUERY, Object.fromEntries(request.query));
  const handler = routes[found.name] as (ctx: RouteContext) => unknown;
  return handler({ ...context, params: found.params, body, query, refundKey: request.refundKey } as RouteContext);
}
