import type { BulkItem, BulkOp } from '../../bulk/input';
import { UsageError } from '../../contract/errors';
import { refundNotesProblem } from '../../contract/rules';
import { amountFlag, intFlag, notesFlag } from '../flags';
import { captureMoney } from './capture-request';

/** The options every command that takes many payments shares (declared by `bulkOptions`). */
export interface BulkFlags {
  input?: string;
  concurrency?: string;
  journal?: string;
  newRun: boolean;
  recheck: boolean;
  skipInvalid: boolean;
  confirmLive?: string;
  /** --dry-run --read: read each payment to total what would be sent. */
  read?: boolean;
}

/** One bulk run as asked for: the operation, ids or --input, and the defaults rows may leave out. */
export interface BulkRun extends BulkFlags {
  op: BulkOp;
  ids: string[];
  amount?: string;
  currency?: string;
  receipt?: string;
  notes: string[];
  retryUnknown: boolean;
}

export interface BulkPlan {
  concurrency: number;
  /** False for a named journal alone: a resume runs its plan, a --recheck its unresolved payments. */
  readInput: boolean;
  /** Fills what a row leaves out from --amount, --currency, --receipt and --note. */
  fill: (item: BulkItem) => BulkItem;
}

export const DEFAULT_CONCURRENCY = 8;

/** Pure: every check of the flags themselves, made before any input is read or anything sent. */
export function planBulk(run: BulkRun): BulkPlan {
  if (run.recheck && run.retryUnknown)
    throw new UsageError(
      '--recheck only reads back and --retry-unknown resends: recheck first, then rerun with --retry-unknown',
    );
  if (run.recheck && run.newRun)
    throw new UsageError("--recheck reads back an earlier run's journal; --new-run starts a fresh one: pick one");
  if (run.input !== undefined && run.ids.length)
    throw new UsageError('give payment ids as arguments or with --input, not both');
  const concurrency = intFlag(run.concurrency, '--concurrency', 1, 64) ?? DEFAULT_CONCURRENCY;
  const readInput = run.ids.length > 0 || run.input !== undefined;
  if (!readInput && run.journal === undefined)
    throw new UsageError('--recheck needs the journal: --journal FILE, or the same input as the run');
  if (!readInput && run.newRun)
    throw new UsageError('--new-run needs the input to run again (ids or --input), not only its journal');
  return { concurrency, readInput, fill: defaultsFrom(run) };
}

function defaultsFrom(run: BulkRun): (item: BulkItem) => BulkItem {
  const { amount, currency } =
    run.op === 'capture'
      ? captureMoney(run, "each payment's authorized amount is captured")
      : { amount: amountFlag(run.amount), currency: undefined };
  const notes = notesFlag(run.notes);
  const problem = run.op === 'refund' ? refundNotesProblem(notes) : undefined;
  if (problem) throw new UsageError(`--note: ${problem}; nothing was sent`);
  return (item) => ({
    ...item,
    amount: item.amount ?? amount,
    currency: item.currency ?? (item.amount === undefined ? currency : undefined),
    receipt: item.receipt ?? run.receipt,
    notes: item.notes ?? notes,
  });
}
