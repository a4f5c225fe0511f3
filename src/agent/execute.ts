import { ApiError, OutcomeUnknownError, UsageError } from '../contract/errors';
import type { AuditRecord } from './audit';
import { inToolTerms, runTool } from './derive';
import type { DerivedTool } from './derive';
import { dataOf } from './plan';
import type { ToolEnv } from './plan';
import type { Plan, Rails } from './rails';
import { cleanText, fail, fromService, ok } from './results';
import type { ToolResult } from './results';

/** The rails' side of a write: the caps, the audit log, and what the assistant is told. */
export interface Writer {
  rails: Rails;
  record(tool: string, args: Record<string, unknown>, event: AuditRecord['event'], extra?: Partial<AuditRecord>): void;
  /** Keys of refunds being sent now: one intended refund is never sent twice at once. */
  sendingKeys: Set<string>;
}

const keyOf = (plan: Plan) => (typeof plan.args.idempotency_key === 'string' ? plan.args.idempotency_key : undefined);

/** How an assistant finds out what became of a write whose answer was lost: tool calls it can make. */
function checks(tool: DerivedTool, plan: Plan): Record<string, unknown>[] {
  const key = keyOf(plan);
  const paymentId = plan.args.payment_id;
  if (tool.endpoint === 'refundPayment' && key)
    return [
      {
        tool: 'payments_refund',
        arguments: { payment_id: paymentId, idempotency_key: key },
        why: 'looks for the refund carrying this key first and sends only if none does: plan it, then confirm',
      },
      { tool: 'refunds_list', arguments: { payment_id: paymentId }, why: 'a refund with notes.payctl_key = the key' },
    ];
  if (typeof paymentId === 'string') return [{ tool: 'payments_get', arguments: { payment_id: paymentId } }];
  return [];
}

/**
 * Sends a confirmed plan through its command's own handler, once the caps took it (checked and reserved
 * in one step, here, whichever way it was confirmed). The intent is in the audit log before the send,
 * or nothing is sent; after the send, a log that cannot be written never changes what the assistant is
 * told about the money: it is told the outcome, and that the log could not be written.
 */
export async function executeWrite(w: Writer, env: ToolEnv, tool: DerivedTool, plan: Plan): Promise<ToolResult> {
  const key = keyOf(plan);
  const base = { amount: plan.amount, currency: plan.currency, key };
  if (key && w.sendingKeys.has(key))
    return ok(
      {
        outcome: 'refused',
        message: `the refund with key ${key} is being sent now: wait for its outcome; nothing was sent`,
      },
      true,
    );
  const refusal = w.rails.take(plan);
  if (refusal) {
    const message = `${refusal.message}; nothing was sent`;
    try {
      w.record(tool.name, plan.args, 'refused', { ...base, message });
    } catch {
      // Nothing was sent: the refusal stands whether or not it is in the log.
    }
    return ok({ outcome: 'refused', cap: refusal.cap, message }, true);
  }
  try {
    w.record(tool.name, plan.args, 'sending', { ...base, plan });
  } catch (err) {
    w.rails.release(plan);
    return fail(`the audit log could not be written (${(err as Error).message}): nothing was sent`);
  }
  if (key) w.sendingKeys.add(key);
  let answer: Record<string, unknown>;
  let isError = false;
  let event: AuditRecord['event'];
  let extra: Partial<AuditRecord>;
  try {
    const data = await dataOf(await runTool(env.groups, tool, plan.args, env.sending));
    const id = (data as { id?: unknown } | null)?.id;
    event = 'done';
    extra = { result_id: typeof id === 'string' ? id : undefined };
    answer = { outcome: 'done', ...fromService(data), ...(key ? { idempotency_key: key } : {}) };
  } catch (err) {
    const message = cleanText(inToolTerms(tool, (err as Error).message ?? String(err)));
    // Only the service's own error object, or a check of ours before the send, proves nothing happened.
    const refused = err instanceof ApiError || err instanceof UsageError;
    if (refused) w.rails.release(plan);
    event = refused ? 'failed' : 'unknown';
    extra = { message };
    isError = true;
    answer = refused
      ? { outcome: 'not done', message }
      : {
          outcome: 'unknown',
          message,
          ...(key ? { idempotency_key: key } : {}),
          // For a person at a terminal; the assistant's own way is check_with.
          cli_check: err instanceof OutcomeUnknownError ? cleanText(err.check) : undefined,
          check_with: checks(tool, plan),
        };
  }
  if (key) w.sendingKeys.delete(key);
  answer.notices = env.notices;
  try {
    w.record(tool.name, plan.args, event, { ...base, ...extra });
  } catch (err) {
    answer.audit_log = `the audit log could not be written (${(err as Error).message}): this outcome is not in it`;
  }
  return ok(answer, isError);
}
