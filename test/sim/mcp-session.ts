import { mkdirSync, rmdirSync } from 'node:fs';
import { AuditLog, keyedRefundIn, unknownRefundIn, verifyAudit } from '../../src/agent/audit';
import type { AuditRecord } from '../../src/agent/audit';
import { deriveTools, inToolTerms } from '../../src/agent/derive';
import type { DerivedTool } from '../../src/agent/derive';
import { executeWrite } from '../../src/agent/execute';
import type { Writer } from '../../src/agent/execute';
import { planWrite, toolEnv } from '../../src/agent/plan';
import type { ToolEnv } from '../../src/agent/plan';
import { Rails } from '../../src/agent/rails';
import type { Caps } from '../../src/agent/rails';
import { cleanText, fail, ok } from '../../src/agent/results';
import type { ToolResult } from '../../src/agent/results';
import { GROUPS } from '../../src/cli/groups';
import type { Context } from '../../src/commands/context';

/**
 * How an append fails: the disk refuses it before a byte is written, or the line is written and its
 * head file cannot be (a directory stands where its temporary file goes), so the real AuditLog cuts the
 * line back and throws.
 */
export type AppendFault = 'refused' | 'torn' | undefined;

/** One append the audit log was asked for: its event and key, and whether (how) it failed. */
export interface Append {
  event: AuditRecord['event'];
  key?: string;
  failed: AppendFault;
}

/**
 * One `payctl mcp` session as src/agent/serve.ts wires it, minus the protocol: the real Rails (tokens,
 * caps taken at send), the real planWrite (dry run, the unknown refund's key lent to the next plan),
 * the real executeWrite (intent logged before the send, outcome after) and the real chained AuditLog.
 * What is here mirrors serve.ts's routing only (keep it in step): a write tool plans, checks the caps as
 * a courtesy, then asks the person (elicitation) or issues a token; `confirm` redeems a token. A served
 * session uses one of the two ways; here calls of both ways share one Rails, which only makes races at
 * `take` more likely. `appendFails` decides whether (and how) an append fails.
 */
export class SimSession {
  readonly rails: Rails;
  readonly audit: AuditLog;
  readonly writer: Writer;
  readonly appends: Append[] = [];
  readonly refund: DerivedTool;
  readonly tools: DerivedTool[];

  constructor(
    caps: Caps,
    path: string,
    private readonly now: () => number,
    private readonly appendFails: (event: AuditRecord['event']) => AppendFault,
  ) {
    this.rails = new Rails(caps, now);
    this.audit = new AuditLog(path);
    this.tools = deriveTools(GROUPS);
    this.refund = this.tools.find((t) => t.name === 'payments_refund')!;
    this.writer = { rails: this.rails, record: (...a) => this.record(...a), sendingKeys: new Set() };
  }

  record(tool: string, args: Record<string, unknown>, event: AuditRecord['event'], extra: Partial<AuditRecord> = {}) {
    const key = typeof extra.key === 'string' ? extra.key : undefined;
    const failed = this.appendFails(event);
    this.appends.push({ event, key, failed });
    if (failed === 'refused')
      throw Object.assign(new Error('ENOSPC: no space left on device, open'), { code: 'ENOSPC' });
    const at = new Date(this.now()).toISOString();
    const blocker = `${this.audit.path}.head.tmp`;
    if (failed === 'torn') mkdirSync(blocker);
    try {
      this.audit.append({ at, profile: 'environment', tool, arguments: args, event, ...extra });
    } finally {
      if (failed === 'torn') rmdirSync(blocker);
    }
  }

  records() {
    return verifyAudit(this.audit.path).records;
  }

  /** serve.ts's envFor: one call's planning and sending contexts, made from the simulated process's. */
  envFor(ctx: Context): ToolEnv {
    return toolEnv(ctx, GROUPS, this.tools, {
      unknownRefund: (paymentId) => unknownRefundIn(this.records(), paymentId),
      keyedRefund: (paymentId, key) => keyedRefundIn(this.records(), paymentId, key),
    });
  }

  /** A write tool call: its plan, then the person's answer (`ask`, when the client elicits) or a token. */
  async write(args: Record<string, unknown>, env: ToolEnv, ask?: (question: string) => Promise<boolean>) {
    const tool = this.refund;
    try {
      const plan = await planWrite(tool, args, env);
      const refusal = this.rails.check(plan);
      if (refusal) {
        this.record(tool.name, plan.args, 'refused', { amount: plan.amount, message: refusal.message });
        return ok({ outcome: 'refused', cap: refusal.cap, message: `${refusal.message}; nothing was sent` }, true);
      }
      const key = typeof plan.args.idempotency_key === 'string' ? plan.args.idempotency_key : undefined;
      if (ask) {
        if (!(await ask(cleanText(`${tool.words.join(' ')} ${plan.amountText}\n${JSON.stringify(plan.args)}`)))) {
          this.record(tool.name, plan.args, 'declined', { plan, amount: plan.amount, key });
          return ok({ outcome: 'declined', message: 'the person declined: nothing was sent', plan });
        }
        return await executeWrite(this.writer, env, tool, plan);
      }
      this.record(tool.name, plan.args, 'planned', { plan, amount: plan.amount, key });
      const { token } = this.rails.issue(plan);
      return ok({ outcome: 'planned', message: 'nothing was sent', plan, token });
    } catch (err) {
      const text = cleanText(inToolTerms(tool, (err as Error).message ?? String(err)));
      return fail(/nothing was sent/.test(text) ? text : `${text}; nothing was sent`);
    }
  }

  /** The `confirm` tool. */
  async confirm(token: string, env: ToolEnv): Promise<ToolResult> {
    const redeemed = this.rails.redeem(token);
    if ('error' in redeemed) {
      try {
        this.record('confirm', { token: `${token.slice(0, 8)}…` }, 'refused', { message: redeemed.error });
      } catch {
        // Nothing was sent either way.
      }
      return fail(redeemed.error);
    }
    return executeWrite(this.writer, env, this.refund, redeemed.plan);
  }
}
