import type * as z from 'zod/mini';
import { ErrorBody, describeIssue, endpointPath, endpoints } from '../contract';
import type { BodyOf, EndpointName, Method, QueryOf } from '../contract';
import {
  ApiError,
  AuthError,
  NoEndpointError,
  FailureError,
  NetworkError,
  OutcomeUnknownError,
  RateLimitError,
  UsageError,
} from '../contract/errors';
import { TransportError } from './http';
import { refusedLocally } from './loopback';
import type { HttpClient, HttpRequest, HttpResponse, Pacer } from './http';

/**
 * Seam: what ApiClient needs of the HTTP layer. HttpClient is the real one; a simulation or a test
 * passes any object with the same `send` (and `url`) to run the client over a fake service.
 */
export type Transport = Pick<HttpClient, 'send' | 'url'>;

const LOCAL_HINT =
  'nothing is listening there: is `payctl sandbox start` running? (or check --base-url, PAYCTL_BASE_URL or the profile)';

const attempts = (n: number) => `${n} attempt${n === 1 ? '' : 's'}`;

interface CallArgs<N extends EndpointName> {
  params?: Record<string, string>;
  query?: QueryOf<N>;
  body?: BodyOf<N>;
}

/** A validated request, ready to send or to print with --dry-run. */
export interface Prepared {
  endpoint: EndpointName;
  method: Method;
  path: string;
  url: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Sent with this request only (e.g. X-Refund-Idempotency); never printed by a dry run. */
  headers?: Record<string, string>;
}

function validate(schema: z.ZodMiniType | undefined, value: unknown, what: string): unknown {
  if (!schema || value === undefined) return value;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new UsageError(`invalid ${what}: ${describeIssue(parsed.error, value)}`);
  return parsed.data;
}

const snippet = (text: string) => JSON.stringify(text.replace(/\s+/g, ' ').trim().slice(0, 60));

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** A one-item `collection` where a record was expected (the real service does this for payment transfers). */
function unwrapSingle(value: unknown): unknown {
  const v = value as { entity?: unknown; items?: unknown[] } | null;
  if (v && v.entity === 'collection' && Array.isArray(v.items) && v.items.length === 1) return v.items[0];
  return value;
}

/**
 * The service's endpoints as calls: requests are validated with the spec schemas before anything is
 * sent (exit 2), responses are checked to be the resource asked for, and every failure becomes one
 * typed error. Returned records are the JSON exactly as the service sent it.
 */
export class ApiClient {
  /**
   * `onWrite` hears of every write to the service (named endpoint or `payctl api` path) when it is
   * sent and returns what to call once its answer is in: a signal in between cannot leave it unsaid.
   */
  constructor(
    readonly http: Transport,
    private readonly onWrite?: (path: string, body: unknown) => () => void,
  ) {}

  prepare<N extends EndpointName>(name: N, args: CallArgs<N> = {}): Prepared {
    const endpoint = endpoints[name];
    const path = endpointPath(endpoint.path, args.params);
    const query = validate('query' in endpoint ? endpoint.query : undefined, args.query, 'query') as Prepared['query'];
    const body =
      endpoint.method !== 'GET'
        ? validate('body' in endpoint ? endpoint.body : undefined, args.body ?? {}, 'request')
        : undefined;
    return { endpoint: name, method: endpoint.method, path, url: this.http.url({ path, query }), query, body };
  }

  /** `pacer`: the caller paces this request's retry waits (see HttpRequest). */
  async execute<T = Record<string, unknown>>(req: Prepared, pacer?: Pacer): Promise<T> {
    const response = await this.transmit(req.method, req.path, req.query, req.body, false, req.headers, pacer);
    const schema = endpoints[req.endpoint].response;
    let value = response.value;
    let checked = schema.safeParse(value);
    if (!checked.success) checked = schema.safeParse((value = unwrapSingle(value)));
    if (!checked.success) {
      const problem =
        `the service answered HTTP ${response.status} with something else than expected ` +
        `(${describeIssue(checked.error, value)})`;
      if (req.method === 'GET') throw new FailureError(problem);
      throw new OutcomeUnknownError(problem, 'the request may have been applied: check before sending it again');
    }
    return value as T;
  }

  call<T = Record<string, unknown>, N extends EndpointName = EndpointName>(
    name: N,
    args: CallArgs<N> = {},
  ): Promise<T> {
    return this.execute<T>(this.prepare(name, args));
  }

  /**
   * Any path below the base URL (`payctl api`): the same transport, retries and error rules as the
   * named endpoints; the answer is not checked against a schema, since the path may be one the spec lacks.
   */
  async request<T = unknown>(method: Method, path: string, query?: Prepared['query'], body?: unknown): Promise<T> {
    return (await this.transmit(method, path, query, body, false)).value as T;
  }

  /** A path from the origin, outside the base URL's version prefix; the answer is not checked against a schema. */
  async requestFromOrigin<T = Record<string, unknown>>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<T> {
    const response = await this.transmit(method, path, undefined, body ?? (method === 'POST' ? {} : undefined), true);
    return response.value as T;
  }

  private async transmit(
    method: Method,
    path: string,
    query: Prepared['query'],
    body: unknown,
    fromOrigin: boolean,
    headers?: HttpRequest['headers'],
    pacer?: Pacer,
  ): Promise<{ status: number; value: unknown }> {
    let response: HttpResponse;
    const where = `${method} ${this.http.url({ path, fromOrigin })}`;
    // The sandbox's own admin routes (fromOrigin) move no money and have no command to check them with.
    const answered = method !== 'GET' && !fromOrigin ? this.onWrite?.(path, body) : undefined;
    try {
      response = await this.http.send({ method, path, query, body, fromOrigin, headers, ...(pacer ? { pacer } : {}) });
    } catch (err) {
      if (!(err instanceof TransportError)) throw err;
      if (err.failure === 'unresolved') {
        const host = new URL(this.http.url({ path: '', fromOrigin: true })).hostname;
        throw new NetworkError(
          `cannot resolve the host name ${host} (${err.message}): nothing was sent`,
          "check --base-url, PAYCTL_BASE_URL or the profile's base URL (`payctl profile show`)",
        );
      }
      if (err.failure === 'not_sent' || method === 'GET') {
        const applied = method === 'GET' ? '' : ' (it never reached the service: nothing was applied)';
        throw new NetworkError(
          `could not get an answer from the service (${err.message}) ` +
            `after ${attempts(err.attempts)}: ${where}${applied}`,
          refusedLocally(this.http.url({ path: '', fromOrigin: true }), err.cause) ? LOCAL_HINT : undefined,
        );
      }
      const answer = `no answer to ${where} (${err.failure === 'timeout' ? `timed out: ${err.message}` : err.message})`;
      throw new OutcomeUnknownError(
        `${answer}: the request may or may not have been applied`,
        'check the resource before sending it again',
        answer,
      );
    } finally {
      answered?.();
    }
    return { status: response.status, value: classify(method, where, response, path) };
  }
}

/** What an answer holds: the parsed JSON, and the service's own error object if it is one. */
function readAnswer(text: string) {
  const parsed = parseJson(text);
  const hasError = parsed.ok && parsed.value !== null && typeof parsed.value === 'object' && 'error' in parsed.value;
  const errorBody = hasError ? ErrorBody.safeParse(parsed.value) : undefined;
  const service = errorBody?.success ? errorBody.data.error : undefined;
  const describe =
    service?.description ??
    (parsed.ok
      ? service
        ? undefined
        : "a JSON body that is not the service's error object"
      : text.trim()
        ? `a body that is not JSON: ${snippet(text)}`
        : 'an empty body');
  return { parsed, service, describe };
}

/**
 * The one place answers are judged (DESIGN section 6). Only the service's own JSON error object on a
 * 4xx (and a 401 or 429) proves that a write was not applied. Any other answer to a POST (an HTML or
 * empty 4xx from a proxy, a 5xx, a 1xx/3xx, a 2xx that cannot be read) leaves its outcome unknown:
 * never called refused, never resent.
 */
/** The service's own words for a method and path it does not serve. */
const NO_SUCH_URL = /^The requested URL was not found on the server\.?$/;

export function classify(method: string, where: string, response: HttpResponse, path?: string): unknown {
  const { status } = response;
  const { parsed, service, describe } = readAnswer(response.text);

  if (status === 401)
    throw new AuthError(
      `authentication failed (HTTP 401)${service?.description ? `: ${service.description}` : ''}; ` +
        'check the key id and secret',
    );
  if (status === 429)
    throw new RateLimitError(`rate limited (HTTP 429) and retries exhausted after ${attempts(response.attempts)}`);
  if (service && status === 400 && NO_SUCH_URL.test(service.description ?? '')) {
    const shown = path ?? (where.split(' ')[1] ? new URL(where.split(' ')[1]!).pathname : '');
    throw new NoEndpointError(status, service, where, `${method} ${shown.split('?')[0]}`);
  }
  if (service && status >= 400 && status < 500) throw new ApiError(status, service, where);
  // A 2xx carrying an error object is no proof either way for a write; for a read it is the answer.
  if (service && status >= 200 && status < 300 && method === 'GET') throw new ApiError(status, service, where);
  if (status >= 200 && status < 300 && parsed.ok && !service) return parsed.value;

  const what = service
    ? `HTTP ${status} carrying an error object (${service.description ?? service.code})`
    : `HTTP ${status} with ${describe}`;
  if (method === 'GET') {
    if (status >= 500) throw new NetworkError(`the service failed with ${what} (after ${attempts(response.attempts)})`);
    throw new FailureError(`unexpected answer to ${where}: ${what}`);
  }
  const from =
    status >= 500 || (status >= 200 && status < 300) || service
      ? ''
      : " (not the service's error object: a proxy or gateway may have answered)";
  const answer = `no usable answer to ${where}: ${what}${from}`;
  throw new OutcomeUnknownError(
    `${answer}; the request may or may not have been applied`,
    'check the resource before sending it again',
    answer,
  );
}
