import type { ErrorKind } from '../contract/errors';

/** One row of the exit-code table: the code, the error kinds that end with it, and what it tells a script. */
export interface ExitCodeRow {
  code: number;
  kinds: readonly ErrorKind[];
  meaning: string;
}

/**
 * The one table from error kinds to exit codes. `exitCodeOf` maps errors with it, and `payctl help
 * exit-codes`, the man page and docs/exit-codes.md print it, so what is documented is what happens.
 */
export const EXIT_CODE_TABLE: readonly ExitCodeRow[] = [
  { code: 0, kinds: [], meaning: 'success' },
  {
    code: 1,
    kinds: ['api', 'failure'],
    meaning:
      'the service refused the request (a 4xx carrying its JSON error object, other than 401/429), or another ' +
      'failure: also a finding about what the service sent (a list that changed while it was read, a report that ' +
      'does not tie out, a record for another id than the one asked): nothing is written',
  },
  { code: 2, kinds: ['usage'], meaning: 'usage or validation error: nothing was sent' },
  {
    code: 3,
    kinds: ['auth'],
    meaning: "authentication failed (401), no credentials configured, or a profile's key secret command failed",
  },
  { code: 4, kinds: ['rate_limit'], meaning: 'rate limited (429) and retries exhausted' },
  {
    code: 5,
    kinds: ['network'],
    meaning:
      'network failure, timeout or 5xx where the request is known not to have been applied ' +
      '(also: a proxy that refused the tunnel, a TLS certificate not trusted)',
  },
  {
    code: 6,
    kinds: ['unknown_outcome'],
    meaning: 'outcome unknown: a write may have been applied; the message gives the exact payctl command to check',
  },
  {
    code: 7,
    kinds: ['bulk_incomplete', 'duplicate'],
    meaning:
      'a bulk run finished with some items failed or unknown (summary on stderr, journal kept), or a refund ' +
      'was found more than once under one key (a duplicate: the refund ids are named)',
  },
  { code: 8, kinds: ['declined'], meaning: 'declined at a confirmation (answered No): nothing was sent' },
  {
    code: 130,
    kinds: ['interrupted'],
    meaning:
      'interrupted by SIGINT (Ctrl-C); at a question it says "nothing was sent", with a write on the wire ' +
      'it says it may have been applied and how to check',
  },
  { code: 143, kinds: [], meaning: 'stopped by SIGTERM, said as for 130' },
];

const BY_KIND = new Map(EXIT_CODE_TABLE.flatMap((row) => row.kinds.map((kind) => [kind, row.code] as const)));

/** The exit code of a failed run; a signal that stopped it wins (128 + its number). */
export function exitCodeOf(err: unknown, signalName?: 'SIGINT' | 'SIGTERM'): number {
  if (signalName) return signalName === 'SIGTERM' ? 143 : 130;
  const kind = (err as { kind?: ErrorKind })?.kind;
  if (kind === 'interrupted') return (err as { signal?: string }).signal === 'SIGTERM' ? 143 : 130;
  return (kind && BY_KIND.get(kind)) ?? 1;
}
