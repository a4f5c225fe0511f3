import { itemsFromArgs } from '../../bulk/input';
import type { BulkOp } from '../../bulk/input';
import { arraySource, fileSource, spool } from '../../bulk/source';
import type { ItemSource, Problems } from '../../bulk/source';
import { UsageError } from '../../contract/errors';
import type { Context } from '../context';
import type { BulkPlan, BulkRun } from './bulk-options';
import { MAX_LISTED } from './bulk-report';

/** With --skip-invalid, skipped rows listed one by one; beyond that only their number. */
const MAX_SKIPPED_LISTED = 1000;

/**
 * The payments to work on. An --input file is checked whole now and read again as the run goes
 * (stdin is first copied to a private temporary file), so a million rows stay in bounded memory.
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
    try {
      const spooled = name === '-' ? await spool(ctx.io.stdin) : undefined;
      const file = spooled?.path ?? name;
      ({ source, problems } = await fileSource(file, op, plan.fill, MAX_SKIPPED_LISTED, spooled?.cleanup));
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
