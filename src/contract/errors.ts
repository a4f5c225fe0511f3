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
  | 'duplicate'
  | 'declined'
  | 'interrupted';

export abstract class PayctlError extends Error {
  abstract readonly kind: ErrorKind;
  /** Extra lines printed under the message (hints, the service's reason). */
  hints: string[] = [];
  constructor(message: string, hint?: string) {
    super(message);
    if (hint) this.hints.push(hint);
  }
  toJSON(): Record<string, unknown> {
    return { kind: this.kind, message: this.message, ...(this.hints.length ? { hints: this.hints } : {}) };
  }
}

/** A class of errors that differ only in their kind (and message and hints). */
const ofKind = <K extends ErrorKind>(kind: K) =>
  class extends PayctlError {
    readonly kind = kind;
  };

/** Bad flags or input, caught before anything was sent. */
export class UsageError extends ofKind('usage') {}

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
    /** The request refused ("POST http://…/payments/pay_1/capture"): what the report names it by. */
    readonly where?: string,
  ) {
    super(service.description || `the service refused the request (HTTP ${status})`);
  }
  override toJSON() {
    return { ...super.toJSON(), status: this.status, error: this.service };
  }
}

/**
 * The service serves no such method and path (it answers 400 "The requested URL was not found on the
 * server."): a wrong path or a method the endpoint lacks, never a record missing from the account.
 */
export class NoEndpointError extends ApiError {
  constructor(
    status: number,
    service: ServiceErrorFields,
    where: string | undefined,
    /** "GET /no/such/thing": the method and the path below the base URL. */
    readonly endpoint: string,
  ) {
    super(status, service, where);
    this.message = `the service has no endpoint ${endpoint}`;
  }
  override toJSON() {
    return { ...super.toJSON(), endpoint: this.endpoint };
  }
}

/** Any other failure: a malformed response to a read, a local file problem. */
export class FailureError extends ofKind('failure') {}

/**
 * A list or report that cannot be trusted whole: the service's pages moved while they were read (a row on
 * two pages, a row gone), a settlement report that does not add up, a record that is not the one asked for.
 * A failure (exit 1) whose message names the first row or record that breaks the rule; nothing is written.
 */
export class FindingError extends FailureError {}

export class AuthError extends ofKind('auth') {}

export class RateLimitError extends ofKind('rate_limit') {}

/** Network failure, timeout or 5xx where the request is known not to have been applied. */
export class NetworkError extends ofKind('network') {}

/** A write may or may not have been applied; `check` says how to find out. */
export class OutcomeUnknownError extends PayctlError {
  readonly kind = 'unknown_outcome';
  constructor(
    message: string,
    readonly check: string,
    /** What was (or was not) heard back, without the conclusion: "timed out", "HTTP 408 with an empty body". */
    readonly answer: string = message,
  ) {
    super(message, check);
  }
}

export class BulkIncompleteError extends ofKind('bulk_incomplete') {}

/** More than one refund carries one refund's key: the money moved more than once; a person must look. */
export class DuplicateRefundError extends ofKind('duplicate') {}

/** The person answered No at a confirmation: nothing was sent. */
export class DeclinedError extends ofKind('declined') {
  constructor(message = 'declined at a confirmation: nothing was sent') {
    super(message);
  }
}

export class InterruptedError extends PayctlError {
  readonly kind = 'interrupted';
  /** `message` says what became of the work (at a question: nothing was sent). */
  constructor(
    readonly signal: 'SIGINT' | 'SIGTERM',
    message = `interrupted by ${signal}`,
  ) {
    super(message);
  }
}
