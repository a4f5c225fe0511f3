/**
 * The one error hierarchy. Each class names a `kind`; src/cli/exit-codes.ts maps kinds to exit codes in one table.
 * Messages are one line, written for the person at the terminal.
 */
export type ErrorKind =
  | 'usage'
  | 'api'
  | 'failure'
  | 'auth'
  | 'rate_limit'
  | 'network'
  | 'unknown_outcome'
  | 'bulk_incomplete'
  | 'interrupted';

export abstract class PayctlError extends Error {
  abstract readonly kind: ErrorKind;
  /** Extra lines printed under the message (hints, the service's reason). */
  hints: string[] = [];
  toJSON(): Record<string, unknown> {
    return { kind: this.kind, message: this.message, ...(this.hints.length ? { hints: this.hints } : {}) };
  }
}

/** Bad flags or input, caught before anything was sent. */
export class UsageError extends PayctlError {
  readonly kind = 'usage';
  constructor(message: string, hint?: string) {
    super(message);
    if (hint) this.hints.push(hint);
  }
}

interface ServiceErrorFields {
  code?: string | null;
  description?: string | null;
  source?: string | null;
  step?: string | null;
  reason?: string | null;
  field?: string | null;
}

/** The service answered and refused the request (4xx other than 401/429). */
export class ApiError extends PayctlError {
  readonly kind = 'api';
  constructor(
    readonly status: number,
    readonly service: ServiceErrorFields,
  ) {
    super(service.description || `the service refused the request (HTTP ${status})`);
  }
  override toJSON() {
    return { ...super.toJSON(), status: this.status, error: this.service };
  }
}

/** Any other failure: a malformed response to a read, a local file problem. */
export class FailureError extends PayctlError {
  readonly kind = 'failure';
}

export class AuthError extends PayctlError {
  readonly kind = 'auth';
}

export class RateLimitError extends PayctlError {
  readonly kind = 'rate_limit';
}

/** Network failure, timeout or 5xx where the request is known not to have been applied. */
export class NetworkError extends PayctlError {
  readonly kind = 'network';
  constructor(message: string, hint?: string) {
    super(message);
    if (hint) this.hints.push(hint);
  }
}

/** A write may or may not have been applied; `check` says how to find out. */
export class OutcomeUnknownError extends PayctlError {
  readonly kind = 'unknown_outcome';
  constructor(
    message: string,
    readonly check: string,
    /** What was (or was not) heard back, without the conclusion: "timed out", "HTTP 408 with an empty body". */
    readonly answer: string = message,
  ) {
    super(message);
    this.hints.push(check);
  }
}

export class BulkIncompleteError extends PayctlError {
  readonly kind = 'bulk_incomplete';
}

export class InterruptedError extends PayctlError {
  readonly kind = 'interrupted';
  constructor(readonly signal: 'SIGINT' | 'SIGTERM') {
    super(`interrupted by ${signal}`);
  }
}

/** Why a run was stopped when stdout could no longer be written (closed pipe, full disk). */
export class OutputClosedError extends Error {
  override name = 'AbortError'; // what an aborted request rejects with: no error report of its own
  constructor(readonly code: string) {
    super(`stdout failed (${code})`);
  }
}

/** Why a run was stopped by the user: the abort reason requests in flight reject with. */
export class Interrupt extends Error {
  override name = 'AbortError';
  constructor(readonly signal: 'SIGINT' | 'SIGTERM') {
    super(`interrupted by ${signal}`);
  }
}
