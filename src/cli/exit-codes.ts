import type { ErrorKind } from '../contract/errors';

/** The one table from error kinds to exit codes (DESIGN section 5). */
const EXIT_CODES: Record<ErrorKind, number> = {
  usage: 2,
  api: 1,
  failure: 1,
  auth: 3,
  rate_limit: 4,
  network: 5,
  unknown_outcome: 6,
  bulk_incomplete: 7,
  duplicate: 7,
  declined: 8,
  interrupted: 130,
};

/** The exit code of a failed run; a signal that stopped it wins (128 + its number). */
export function exitCodeOf(err: unknown, signalName?: 'SIGINT' | 'SIGTERM'): number {
  if (signalName) return signalName === 'SIGTERM' ? 143 : 130;
  const kind = (err as { kind?: ErrorKind })?.kind;
  if (kind === 'interrupted') return (err as { signal?: string }).signal === 'SIGTERM' ? 143 : 130;
  if (kind && kind in EXIT_CODES) return EXIT_CODES[kind];
  return 1;
}
