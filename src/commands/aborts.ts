// Why a run was stopped: the reasons `Context.signal` aborts with. They are the process's (a signal, a
// closed stdout), not the service's, so they are not errors of the contract: src/cli raises them, and
// handlers tell them apart to say what became of their work.

/** What an aborted request rejects with: a stopped run's reason makes no error report of its own. */
class AbortReason extends Error {
  override name = 'AbortError';
}

/** Why a run was stopped when stdout could no longer be written (closed pipe, full disk). */
export class OutputClosedError extends AbortReason {
  constructor(readonly code: string) {
    super(`stdout failed (${code})`);
  }
}

/** Why a run was stopped by the user: the abort reason requests in flight reject with. */
export class Interrupt extends AbortReason {
  constructor(readonly signal: 'SIGINT' | 'SIGTERM') {
    super(`interrupted by ${signal}`);
  }
}
