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
