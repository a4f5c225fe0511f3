import { itemsFromArgs } from '../../bulk/input';
import type { BulkOp } from '../../bulk/input';
import { createReadStream } from 'node:fs';
import { realDisk } from '../../bulk/disk';
import { arraySource, readOnce } from '../../bulk/source';
import type { ItemSource, Problems } from '../../bulk/source';
import { UsageError } from '../../contract/errors';
import type { Context } from '../context';
import type { BulkPlan, BulkRun } from './bulk-options';
import { MAX_LISTED } from './bulk-report';

/** With --skip-invalid, skipped rows listed one by one; beyond that only their number. */
const MAX_SKIPPED_LISTED = 1000;

/**
 * The payments to work on. An --input (a file or stdin) is read once, checked whole, and its rows kept
 * privately until the journal holds them as the plan; a million rows stay in bounded memory.
 */
export async function readSource(run: BulkRun, plan: BulkPlan, ctx: Context): Promise<ItemSource> {
  const op: BulkOp = run.op;
  let source: ItemSource;
  let problems: Problems;
  if (run.input === undefined) {
    const parsed = itemsFromArgs(run.ids, op);
    source = arraySource(parsed.items.map(plan.fill));
    problems = { first: parsed.problems, count: parsed.problemCount };
  } else {
    const name = run.input;
    // A directory, /dev/zero or a FIFO would be read forever or fail half-way: refused before anything is read.
    if (name !== '-' && realDisk.kind(name) === 'other')
      throw new UsageError(`--input ${name} is not a regular file: nothing was read or sent`);
    try {
      const input = name === '-' ? (ctx.io.stdin as AsyncIterable<Buffer>) : createReadStream(name);
      ({ source, problems } = await readOnce(input, op, plan.fill, MAX_SKIPPED_LISTED));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code && /^E[A-Z]+$/.test(code)) throw new UsageError(`cannot read --input ${name}: ${code}`);
      throw err;
    }
  }
  if (problems.count && !run.skipInvalid) {
    source.cleanup();
    const err = new UsageError(
      `${problems.count} bad input row(s); nothing was sent (fix them, or pass --skip-invalid to leave them out)`,
    );
    for (const p of problems.first.slice(0, MAX_LISTED)) err.hints.push(`line ${p.line}: ${p.message}`);
    if (problems.count > MAX_LISTED) err.hints.push(`… and ${problems.count - MAX_LISTED} more`);
    throw err;
  }
  for (const p of problems.first) ctx.notice(`skipped line ${p.line}: ${p.message}`);
  if (problems.count > problems.first.length)
    ctx.notice(`… and ${problems.count - problems.first.length} more bad lines skipped`);
  if (!source.total) {
    source.cleanup();
    throw new UsageError('no payment ids to work on: the input is empty');
  }
  return source;
}
