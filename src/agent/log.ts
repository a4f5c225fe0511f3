import type { Context } from '../commands/context';
import { many } from '../commands/result';
import type { CommandResult } from '../commands/result';
import { auditPath, readAudit } from './audit';

/** `payctl mcp log`: every write an assistant planned or made, oldest first. */
export async function showLog(_opts: object, ctx: Context): Promise<CommandResult> {
  const rows = readAudit(auditPath(ctx.paths.state)).map((r) => ({
    at: r.at,
    profile: r.profile,
    tool: r.tool,
    event: r.event,
    amount: r.amount ?? null,
    currency: r.currency ?? null,
    target: (r.arguments?.payment_id ?? r.arguments?.customer_id ?? r.arguments?.subscription_id ?? null) as
      string | null,
    result_id: r.result_id ?? null,
    message: r.message ?? null,
  }));
  return many('mcp_log', rows);
}
