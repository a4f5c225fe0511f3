import type { BulkOp } from '../../bulk/input';
import type { Summary } from '../../bulk/runner';
import { BulkIncompleteError, InterruptedError } from '../../contract/errors';
import { Interrupt, OutputClosedError } from '../aborts';
import { printed } from '../invocation';
import type { Invocation } from '../invocation';

/** Bad rows and payments needing attention listed one by one in an error's hints; beyond that only their number. */
export const MAX_LISTED = 20;

/** Pure: the summary line on stderr once every row is out. */
export function summaryLine(s: Summary, journal: string): string {
  const parts = [`${s.done} done`, `${s.skipped} skipped (already done)`, `${s.failed} failed`, `${s.unknown} unknown`];
  if (s.duplicate) parts.push(`${s.duplicate} duplicate`);
  if (s.notStarted) parts.push(`${s.notStarted} not started`);
  return `${s.interrupted ? 'interrupted: ' : ''}${parts.join(', ')}; journal ${journal}`;
}

/** The commands that go on with a run, as printed (see invocation.ts): its service, its journal, --yes. */
export interface NextCommands {
  resume: string;
  recheck: string;
}

/** Pure: the resume and recheck commands of a run whose journal is `journal`. */
export function nextCommands(inv: Invocation, op: BulkOp, journal: string, confirmLive?: string): NextCommands {
  const live = confirmLive === undefined ? [] : ['--confirm-live', confirmLive];
  return {
    resume: printed(inv, ['payments', op, '--journal', journal, ...live], { write: true }),
    recheck: printed(inv, ['payments', op, '--recheck', '--journal', journal]),
  };
}

/** Pure: exit 7 listing what failed or is unknown, and how to recheck or resume. */
export function incomplete(
  op: BulkOp,
  s: Summary,
  journal: string,
  recheck: boolean,
  next: NextCommands,
): BulkIncompleteError {
  const dup = s.duplicate ? `, ${s.duplicate} duplicate` : '';
  const err = new BulkIncompleteError(
    s.failed + s.unknown
      ? `${s.failed + s.unknown} of the ${op}s did not complete (${s.failed} failed, ${s.unknown} unknown${dup})`
      : `${s.duplicate} of the ${op}s were made more than once (duplicate): nothing was sent for them now`,
  );
  const listed = s.attention.slice(0, MAX_LISTED);
  for (const row of listed) {
    const ids = row.result === 'duplicate' && row.refund_id ? ` refunds ${row.refund_id.split(' ').join(', ')}` : '';
    err.hints.push(`${row.result} ${row.payment_id} (line ${row.line})${ids}: ${row.reason ?? row.status ?? ''}`);
  }
  if (s.attention.length > listed.length)
    err.hints.push(`… and ${s.attention.length - listed.length} more: see the output rows or the journal`);
  if (s.unknown) err.hints.push(`\`${next.recheck}\` reads them back later without sending anything`);
  if (!recheck && s.failed + s.unknown) {
    const retry =
      op === 'refund' && s.unknown
        ? ' and look for each unknown refund by its key (sent again with the same key only if no refund carries it)'
        : '';
    err.hints.push(`rerun \`${next.resume}\` to retry what failed${retry}`);
  }
  return err;
}

/** Pure: why the run stopped early: a signal (exit 130/143), or stdout that can no longer be written (exit 7). */
export function stopped(s: Summary, journal: string, reason: unknown, next: NextCommands): Error {
  const resume = `rerun \`${next.resume}\` to finish`;
  if (reason instanceof OutputClosedError) {
    const counts = summaryLine(s, journal).replace(/^interrupted: /, '');
    const err = new BulkIncompleteError(
      `stdout failed (${reason.code}): stopped taking payments after the requests in flight; ${counts}`,
    );
    err.hints.push(resume);
    return err;
  }
  return Object.assign(new InterruptedError(reason instanceof Interrupt ? reason.signal : 'SIGINT'), {
    hints: [`stopped after the requests in flight; ${resume}`],
  });
}

/**
 * Pure: the journal could not be written (a full disk, an I/O error): the run stopped taking
 * payments, waited for those in flight, and exits 7 with what it knows. `summary`: attached by the
 * runner when the run had started.
 */
export function journalFailed(
  err: Error & { code?: string; summary?: Summary },
  journal: string,
  next: NextCommands,
): BulkIncompleteError {
  const s = err.summary;
  const counts = s ? `; ${summaryLine(s, journal).replace(/^interrupted: /, '')}` : '; nothing was sent';
  const e = new BulkIncompleteError(`${err.message}: the run stopped${counts}`);
  e.hints.push(
    'payments whose request was announced but not recorded are looked for by their key on the next run: ' +
      `free some space, then rerun \`${next.resume}\``,
  );
  return e;
}
