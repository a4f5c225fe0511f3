import { Writable } from 'node:stream';

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

const HOOKED = [
  'SIGINT',
  'SIGTERM',
  'SIGHUP',
  'SIGQUIT',
  'SIGBREAK',
  'SIGUSR1',
  'SIGUSR2',
  'SIGALRM',
  'SIGVTALRM',
  'SIGPROF',
  'SIGABRT',
  'SIGSYS',
  'SIGTRAP',
  'SIGXCPU',
  'SIGXFSZ',
  'SIGPIPE',
  'SIGPOLL',
  'SIGIOT',
  'SIGUNUSED',
  'SIGLOST',
  'SIGINFO',
  'SIGPWR',
  'SIGSTKFLT',
] as const;

/**
 * Signals belong to payctl. Some libraries hook them when first loaded (conf -> atomically ->
 * when-exit listens for SIGINT and, to "exit cleanly", sends the same signal again: payctl read that
 * as the user's second Ctrl-C and quit with requests in flight). Whatever listeners `load` adds to
 * signals are removed again; listeners on `exit` stay (they only tidy temporary files).
 */
export async function withoutSignalHooks<T>(load: () => Promise<T>): Promise<T> {
  const before = new Map<string, Set<unknown>>();
  for (const sig of HOOKED) before.set(sig, new Set(process.listeners(sig as NodeJS.Signals)));
  try {
    return await load();
  } finally {
    for (const sig of HOOKED) {
      for (const listener of process.listeners(sig as NodeJS.Signals)) {
        if (!before.get(sig)!.has(listener)) process.removeListener(sig, listener);
      }
    }
  }
}

/**
 * stdout as payctl writes to it: once a write fails (EPIPE from `| head`, ENOSPC from a full disk)
 * `onBroken` is told once and later writes are dropped at once, so a run can still drain and record
 * what it has in flight instead of waiting on a stream that will never take another byte.
 */
export function guardedStdout(
  out: NodeJS.WriteStream,
  onBroken: (err: NodeJS.ErrnoException) => void,
): NodeJS.WritableStream {
  let broken = false;
  const fail = (err: NodeJS.ErrnoException) => {
    if (broken) return;
    broken = true;
    onBroken(err);
  };
  out.on('error', fail);
  const guard = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (broken) return done();
      out.write(chunk, (err) => {
        if (err) fail(err as NodeJS.ErrnoException);
        done();
      });
    },
    final(done) {
      done();
    },
  });
  Object.defineProperty(guard, 'columns', { get: () => out.columns });
  Object.defineProperty(guard, 'isTTY', { get: () => out.isTTY });
  return guard;
}

interface Write {
  path: string;
  body: unknown;
  at: number;
}

/** The command that shows whether an interrupted write was applied. */
export function checkCommand(w: Write): string {
  const payment = /^\/payments\/([^/]+)\/(refund|capture)$/.exec(w.path);
  if (payment) {
    const id = decodeURIComponent(payment[1]!);
    return payment[2] === 'refund'
      ? `payctl payments get ${id} --fields id,amount,amount_refunded,refund_status`
      : `payctl payments get ${id} --fields id,status,amount`;
  }
  const since = new Date(w.at - 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const receipt = (w.body as { receipt?: unknown } | undefined)?.receipt;
  if (w.path === '/orders')
    return `payctl orders list --from ${since}${typeof receipt === 'string' ? ` --receipt '${receipt.replace(/'/g, `'\\''`)}'` : ''}`;
  const customer = (w.body as { customer_id?: unknown } | undefined)?.customer_id;
  if (typeof customer === 'string') return `payctl wallet statement ${customer} --from ${since}`;
  return `payctl ${w.path.split('/')[1] ?? ''} list --from ${since}`;
}

/**
 * Writes (POSTs) of a single command that are on the wire. If the user interrupts while one is, the
 * answer that would have said whether it was applied is given up: say so, with the command to check.
 */
export class WritesInFlight {
  private readonly open = new Set<Write>();

  start(path: string, body: unknown): () => void {
    const w = { path, body, at: Date.now() };
    this.open.add(w);
    return () => this.open.delete(w);
  }

  onInterrupt(stderr: NodeJS.WritableStream) {
    for (const w of this.open)
      stderr.write(
        `payctl: interrupted after the request was sent: it may have been applied; check with \`${checkCommand(w)}\` before trying again\n`,
      );
  }
}
