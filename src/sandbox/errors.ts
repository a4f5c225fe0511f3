/** A request the sandbox refuses, answered with the service's error object. */
export class SandboxError extends Error {
  /** Refusals the real service answers without a business context (an unknown URL): source, step and reason `NA`. */
  na = false;

  constructor(
    message: string,
    readonly status = 400,
    readonly field?: string,
    readonly code = 'BAD_REQUEST_ERROR',
  ) {
    super(message);
  }
}

export function errorBody(err: SandboxError) {
  const business = err.status === 400 && !err.na;
  return {
    error: {
      code: err.code,
      description: err.message,
      source: business ? 'business' : 'NA',
      step: business ? 'payment_initiation' : 'NA',
      reason: business ? (err.field ? 'input_validation_failed' : 'request_rejected') : 'NA',
      metadata: {},
      ...(err.field ? { field: err.field } : {}),
    },
  };
}

export const notFound = () => new SandboxError('The id provided does not exist', 400, 'id');

/** The real service's answer to a path it does not serve. */
export function unknownUrl(): SandboxError {
  const err = new SandboxError('The requested URL was not found on the server.');
  err.na = true;
  return err;
}
