/**
 * Retry rules of DESIGN section 6 as pure functions, so they can be tested without a network or a clock.
 * A POST is resent only when it provably never reached the service (connection refused, connect
 * timeout, DNS failure) or the service said 429 (nothing applied). Everything else on a POST is final.
 */
export type AttemptOutcome =
  | { type: 'response'; status: number; retryAfterMs?: number }
  | { type: 'error'; failure: TransportFailure };

/** `not_sent`: the request never left (refused, connect timeout, DNS). `ambiguous`: it may have arrived. */
export type TransportFailure = 'not_sent' | 'timeout' | 'reset';

export type Decision = { retry: true; delayMs: number } | { retry: false };

export interface RetryPolicy {
  maxRetries: number;
  baseMs: number;
  capMs: number;
  /** Longest Retry-After we are willing to wait for one attempt. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 6, baseMs: 250, capMs: 8_000, maxRetryAfterMs: 60_000 };

export function isRetryable(method: string, outcome: AttemptOutcome): boolean {
  const safe = method === 'GET';
  if (outcome.type === 'response') {
    if (outcome.status === 429) return true;
    return safe && outcome.status >= 500;
  }
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

/** `Retry-After` as seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, nowMs: number): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** Maps a transport error from undici or node:net to what it tells us about delivery. */
export function classifyTransportError(err: unknown): TransportFailure {
  const code = (err as { code?: string } | null)?.code ?? '';
  if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code)) {
    return 'not_sent';
  }
  if (['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT'].includes(code)) return 'timeout';
  if ((err as { name?: string } | null)?.name === 'TimeoutError') return 'timeout';
  return 'reset';
}
