import type { Context } from '../commands/context';
import { many } from '../commands/result';
import type { CommandResult } from '../commands/result';
import { FailureError } from '../contract/errors';
import { auditPath, verifyAudit } from './audit';

/**
 * `payctl mcp log`: every write an assistant planned or made, oldest first, with the chain of hashes
 * checked: a record deleted or edited is named after the rows, and the exit status is 1.
 */
export async function showLog(_opts: object, ctx: Context): Promise<CommandResult> {
  const path = auditPath(ctx.paths.state);
  const { records, problems, legacy } = verifyAudit(path);
  if (legacy) ctx.notice(`payctl: the first ${legacy} records of ${path} predate its chain of hashes: not verified`);
  const rows = records.map((r) => ({
    seq: r.seq,
    at: r.at,
    profile: r.profile,
    tool: r.tool,
    event: r.event,
    amount: r.amount ?? null,
    currency: r.currency ?? null,
    target: (r.arguments?.payment_id ?? r.arguments?.customer_id ?? r.arguments?.subscription_id ?? null) as
      string | null,
    key: r.key ?? null,
    result_id: r.result_id ?? null,
    message: r.message ?? null,
  }));
  return {
    ...many('mcp_log', rows),
    finish: () => {
      if (problems.length)
        throw new FailureError(
          `the audit log ${path} is not intact: ${problems.join('; ')}`,
          'records were removed or changed after they were written: keep this copy, and compare with your backups',
        );
    },
  };
}
