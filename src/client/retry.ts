/**
 * Retry rules of DESIGN section 6 as pure functions, so they can be tested without a network or a clock.
 * A POST is resent only when it provably never reached the service (connection refused, connect
 * timeout) or the service said 429 (nothing applied). Everything else on a POST is final.
 */
export type AttemptOutcome =
  { type: 'response'; status: number; retryAfterMs?: number } | { type: 'error'; failure: TransportFailure };

/**
 * `not_sent`: the request never left (refused, connect timeout). `unresolved`: the host name does not
 * resolve, which retrying will not change (a typo in --base-url or the profile). `timeout` and `reset`:
 * it may have arrived.
 */
export type TransportFailure = 'not_sent' | 'unresolved' | 'timeout' | 'reset';

type Decision = { retry: true; delayMs: number } | { retry: false };

export interface RetryPolicy {
  maxRetries: number;
  baseMs: number;
  capMs: number;
  /** Longest Retry-After we are willing to wait for one attempt. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 6, baseMs: 250, capMs: 8_000, maxRetryAfterMs: 60_000 };

function isRetryable(method: string, outcome: AttemptOutcome): boolean {
  const safe = method === 'GET';
  if (outcome.type === 'response') {
    if (outcome.status === 429) return true;
    return safe && outcome.status >= 500;
  }
  if (outcome.failure === 'unresolved') return false;
  return outcome.failure === 'not_sent' || safe;
}

/** Full jitter: uniform in [0, min(cap, base * 2^attempt)]. `attempt` counts from 0. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** attempt);
  return Math.round(random() * ceiling);
}

export function decide(
  method: string,
  outcome: AttemptOutcome,
  attempt: number,
  policy: RetryPolicy = DEFAULT_RETRY,
  random: () => number = Math.random,
): Decision {
  if (attempt >= policy.maxRetries || !isRetryable(method, outcome)) return { retry: false };
  if (outcome.type === 'response' && outcome.retryAfterMs !== undefined) {
    return { retry: true, delayMs: Math.min(outcome.retryAfterMs, policy.maxRetryAfterMs) };
  }
  return { retry: true, delayMs: backoffMs(attempt, policy, random) };
}

// RFC 9110 section 10.2.3: delay-seconds (digits only) or an HTTP-date in one of its three forms.
const SECONDS = /^\d{1,10}$/;
const HTTP_DATES = [
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
];

/**
 * `Retry-After` in milliseconds, or undefined when absent or invalid. Anything else than the two
 * forms (a negative number, a fraction, garbage) is treated as absent, never as "now": `-1` is not a
 * date in 2001. A date in the past means "retry now" (0).
 */
export function parseRetryAfter(header: string | undefined, nowMs: number): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (SECONDS.test(text)) return Number(text) * 1000;
  if (!HTTP_DATES.some((form) => form.test(text))) return undefined;
  const at = Date.parse(/GMT$/.test(text) ? text : `${text} GMT`);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** Maps a transport error from node:http or node:net to what it tells us about delivery. */
export function classifyTransportError(err: unknown): TransportFailure {
  const code = (err as { code?: string } | null)?.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_FAIL') return 'unresolved';
  // PAYCTL_CONNECT_FAILED: pool.ts's name for any failure while connecting (through a proxy too).
  if (
    ['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'PAYCTL_CONNECT_FAILED'].includes(code)
  )
    return 'not_sent';
  if (['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT', 'PAYCTL_DEADLINE'].includes(code))
    return 'timeout';
  if ((err as { name?: string } | null)?.name === 'TimeoutError') return 'timeout';
  return 'reset';
}

/** A wait worth telling the person about, as one line (without the `payctl: ` prefix). */
export function waitLine(reason: string, delayMs: number, attempt: number, policy: RetryPolicy): string {
  return `${reason}; retrying in ${Math.ceil(delayMs / 1000)}s (attempt ${attempt + 2} of ${policy.maxRetries + 1})`;
}
