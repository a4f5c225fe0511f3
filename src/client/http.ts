import type { Method } from '../contract/endpoints';
import { createPool, refusedBeforeSending } from './pool';
import type { AttemptAnswer, Connection, Route } from './pool';
import { VERSION } from '../version';
import { DEFAULT_RETRY, classifyTransportError, decide, parseRetryAfter, waitLine } from './retry';
import { refusedLocally } from './loopback';
import type { AttemptOutcome, RetryPolicy, TransportFailure } from './retry';

interface HttpOptions {
  baseUrl: string;
  keyId: string;
  keySecret: string;
  timeoutMs: number;
  connections?: number;
  retry?: RetryPolicy;
  debug?: (line: string) => void;
  /** A retry wait longer than a second, as one line for the person at the terminal. */
  onWait?: (line: string) => void;
  sleep?: (ms: number) => Promise<unknown>;
  /** The clock retry waits are measured by (tests move it along with their sleep). */
  now?: () => number;
  signal?: AbortSignal;
  /** A proxy, an extra CA. */
  route?: Route;
  /** Seam: the connection attempts go over (a simulation's network); else a pool of Node's http agent. */
  pool?: Connection;
  /** Seam: the jitter of retry waits (a simulation's seeded generator); else Math.random. */
  random?: () => number;
  /** Seam: the timer of an attempt's deadline (a simulation's clock); answers how to cancel it. */
  deadline?: (ms: number, fire: () => void) => () => void;
}

const realDeadline = (ms: number, fire: () => void) => {
  const timer = setTimeout(fire, ms);
  return () => clearTimeout(timer);
};

/**
 * A caller that paces its own requests (many reads over one pool): told when one of them starts waiting
 * to retry, so it can lend that request's slot to another meanwhile, and waited on before it goes again.
 */
export interface Pacer {
  waiting(): void;
  resumed(): Promise<void>;
}

export interface HttpRequest {
  method: Method;
  /** Path below the base URL, e.g. `/payments/pay_x/capture`, or absolute from the origin when `fromOrigin`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  fromOrigin?: boolean;
  /** Extra headers of this request (the refund's idempotency key); they never replace auth or content type. */
  headers?: Record<string, string>;
  /**
   * Its waits go through the caller's pacer, and its 429s do not close the client's gate: one id the
   * service keeps limiting must not stop the ids beside it (the caller bounds how many wait at once).
   */
  pacer?: Pacer;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  attempts: number;
}

/** The request failed below HTTP; `failure` says whether it could have reached the service. */
export class TransportError extends Error {
  constructor(
    readonly failure: TransportFailure,
    readonly attempts: number,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

const MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * The one HTTP layer: a keep-alive pool per run, Basic auth, timeouts and the retry rules of retry.ts.
 * A 429 pauses every request of this client (a shared gate), so a bulk run slows down as a whole; a
 * request with a pacer waits alone, its caller pacing the run.
 */
export class HttpClient {
  private readonly pool: Connection;
  private readonly origin: string;
  private readonly prefix: string;
  private readonly auth: string;
  private readonly policy: RetryPolicy;
  private readonly pause: (ms: number) => Promise<unknown>;
  private readonly now: () => number;
  private gateUntil = 0;
  /** End of the last wait announced: requests queued behind one 429 do not each say so again. */
  private announcedUntil = 0;

  constructor(private readonly opts: HttpOptions) {
    const url = new URL(opts.baseUrl);
    this.origin = url.origin;
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.auth = 'Basic ' + Buffer.from(`${opts.keyId}:${opts.keySecret}`).toString('base64');
    this.policy = opts.retry ?? DEFAULT_RETRY;
    this.now = opts.now ?? Date.now;
    this.pause =
      opts.sleep ??
      ((ms) => process.getBuiltinModule('node:timers/promises').setTimeout(ms, undefined, { signal: opts.signal }));
    this.pool =
      opts.pool ??
      createPool(this.origin, { connections: opts.connections ?? 16, keepAliveTimeout: 4_000 }, opts.route);
    const proxy = opts.route?.proxy;
    if (proxy) this.trace(`${this.origin} through the proxy ${proxy.shown}${proxy.from ? ` (${proxy.from})` : ''}`);
  }

  url(req: Pick<HttpRequest, 'path' | 'query' | 'fromOrigin'>): string {
    let qs = '';
    // Made three times for every request (the plan, the message, the send): a write has no query to encode.
    if (req.query) {
      const search = new URLSearchParams();
      for (const [k, v] of Object.entries(req.query)) if (v !== undefined) search.set(k, String(v));
      qs = search.toString();
    }
    return `${this.origin}${req.fromOrigin ? '' : this.prefix}${req.path}${qs ? `?${qs}` : ''}`;
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    const target = this.url(req);
    const path = target.slice(this.origin.length);
    const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
    const headers: Record<string, string> = {
      ...req.headers,
      authorization: this.auth,
      accept: 'application/json',
      'user-agent': `payctl/${VERSION}`,
    };
    if (payload !== undefined) headers['content-type'] = 'application/json';

    for (let attempt = 0; ; attempt++) {
      const wait = this.gateUntil - this.now();
      if (wait > 0) await this.waitFor(req, wait);
      const started = Date.now();
      let outcome: AttemptOutcome;
      let response: HttpResponse | undefined;
      let failure: unknown;
      try {
        response = await this.once(path, req.method, headers, payload, attempt + 1);
        outcome = {
          type: 'response',
          status: response.status,
          retryAfterMs: parseRetryAfter(first(response.headers['retry-after']), Date.now()),
        };
      } catch (err) {
        if (this.opts.signal?.aborted) throw err;
        failure = err;
        outcome = { type: 'error', failure: classifyTransportError(err) };
      }
      if (this.opts.debug) {
        const ms = Math.round(Date.now() - started);
        const result = outcome.type === 'response' ? outcome.status : `${outcome.failure} (${describe(failure)})`;
        this.trace(`${req.method} ${target} -> ${result} in ${ms} ms`);
      }
      if (response && response.status < 500 && response.status !== 429) return response;
      if (refusedBeforeSending(failure)) throw new TransportError('not_sent', attempt + 1, failure);
      const decision = refusedLocally(this.origin, failure)
        ? ({ retry: false } as const)
        : decide(req.method, outcome, attempt, this.policy, this.opts.random);
      if (!decision.retry) {
        if (response) return response;
        throw new TransportError((outcome as { failure: TransportFailure }).failure, attempt + 1, failure);
      }
      this.trace(`retry ${attempt + 1}/${this.policy.maxRetries} in ${decision.delayMs} ms`);
      this.announce(response, failure, decision.delayMs, attempt);
      // A 429 closes the gate for every request of this client; the top of the loop waits on it.
      if (response?.status === 429 && !req.pacer)
        this.gateUntil = Math.max(this.gateUntil, this.now() + decision.delayMs);
      else await this.waitFor(req, decision.delayMs);
    }
  }

  private async waitFor(req: HttpRequest, ms: number) {
    if (!req.pacer) return void (await this.pause(ms));
    req.pacer.waiting();
    try {
      await this.pause(ms);
    } finally {
      await req.pacer.resumed();
    }
  }

  private announce(response: HttpResponse | undefined, failure: unknown, delayMs: number, attempt: number) {
    const until = this.now() + delayMs;
    if (delayMs <= 1_000 || until <= this.announcedUntil + 1_000) return;
    this.announcedUntil = until;
    const reason =
      response?.status === 429
        ? 'rate limited'
        : response
          ? `the service answered HTTP ${response.status}`
          : `no answer (${describe(failure)})`;
    this.opts.onWait?.(waitLine(reason, delayMs, attempt, this.policy));
  }

  private async once(
    path: string,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    attempts: number,
  ): Promise<HttpResponse> {
    // One deadline per attempt, from connect to the last byte: a timeout that restarts with every chunk
    // would never end a body dripped a byte at a time.
    const deadline = new AbortController();
    const cancel = (this.opts.deadline ?? realDeadline)(this.opts.timeoutMs, () => {
      const err = Object.assign(new Error(`no complete answer within ${this.opts.timeoutMs / 1000}s (--timeout)`), {
        code: 'PAYCTL_DEADLINE',
      });
      deadline.abort(err);
    });
    const signal = this.opts.signal ? AbortSignal.any([deadline.signal, this.opts.signal]) : deadline.signal;
    try {
      const res = await this.pool.request({ path, method, headers, body, signal });
      return { status: res.statusCode, headers: res.headers, text: await readText(res.body), attempts };
    } finally {
      cancel();
    }
  }

  private trace(line: string) {
    this.opts.debug?.(line);
  }

  /**
   * Called once the command is done with the service: every request has its answer by then (a bulk
   * run waits for all it started), so the idle keep-alive sockets are dropped rather than closed
   * gracefully, which only delays the exit.
   */
  async close(): Promise<void> {
    await this.pool.destroy().catch(() => undefined);
  }
}

/**
 * A body as text once it has all arrived; one larger than MAX_BODY_BYTES is cut off. Read from its
 * events: an async iterator over it cost a bulk run more than the rest of reading its answers. It
 * fails as the iterator did: with the error the stream was destroyed with (a reset, the deadline), or
 * as a premature close when it ended without one.
 */
function readText(body: AttemptAnswer['body']): Promise<string> {
  const prematureClose = () => Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
  return new Promise((resolve, reject) => {
    // Destroyed before it was read: no event will come.
    if (body.destroyed) return reject(body.errored ?? prematureClose());
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (err: unknown) => {
      settled = true;
      reject(err);
    };
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      body.destroy();
      fail(
        Object.assign(new Error(`response body larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`), {
          code: 'PAYCTL_BODY_TOO_LARGE',
        }),
      );
    });
    body.once('end', () => {
      settled = true;
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    body.once('error', fail);
    // Every body closes, most after 'end': an error (and its stack) is made only for one that did not end.
    body.once('close', () => settled || fail(prematureClose()));
  });
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const describe = (err: unknown) => (err as { code?: string })?.code ?? (err as Error)?.message ?? String(err);
