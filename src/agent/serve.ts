import type { Readable, Writable } from 'node:stream';
import type { Context } from '../commands/context';
import type { CommandGroup } from '../commands/declare';
import { intFlag } from '../commands/flags';
import { UsageError } from '../contract/errors';
import { VERSION } from '../version';
import { AuditLog, auditPath, keyedRefundIn, unknownRefundIn, verifyAudit } from './audit';
import type { AuditRecord } from './audit';
import { deriveTools, inToolTerms, runTool } from './derive';
import type { DerivedTool } from './derive';
import { executeWrite } from './execute';
import type { Writer } from './execute';
import { dataOf, planWrite, toolEnv } from './plan';
import type { ToolEnv } from './plan';
import { Rails } from './rails';
import type { Caps } from './rails';
import { cleanText, fail, fromService, ok } from './results';
import type { ToolResult } from './results';

/** The flags of `payctl mcp` as given: checked here, so that declaring the command loads no parser. */
export interface McpOptions {
  allowWrites: boolean;
  allowLive?: string;
  maxAmount?: string;
  maxTotal?: string;
  maxWrites?: string;
  tokenTtl: string;
  /** Every command group: those of their commands marked as tools are served. */
  groups: readonly CommandGroup[];
}

export function capsOf(opts: McpOptions): Caps {
  return {
    maxAmount: intFlag(opts.maxAmount, '--max-amount', 0),
    maxTotal: intFlag(opts.maxTotal, '--max-total', 0),
    maxWrites: intFlag(opts.maxWrites, '--max-writes', 0),
    tokenTtlMs: intFlag(opts.tokenTtl, '--token-ttl', 1, 86_400) * 1000,
  };
}

const CONFIRM = {
  name: 'confirm',
  description: 'Carry out the plan a write tool returned, once: give its token. Tokens expire and cannot be reused.',
  inputSchema: {
    type: 'object' as const,
    properties: { token: { type: 'string', description: 'the token a write tool returned' } },
    required: ['token'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
};

/** A page of a list, said to be one page: the assistant is told where the next starts. */
function paged(tool: DerivedTool, args: Record<string, unknown>, items: unknown[]) {
  const count = Number(args.count ?? 10);
  const skip = Number(args.skip ?? 0);
  const more = items.length >= count;
  return {
    page: { count, skip, returned: items.length, more_may_exist: more, next_skip: more ? skip + count : null },
    next: more ? `one page of ${count}: call ${tool.name} again with skip=${skip + count} for more` : 'the last page',
  };
}

/**
 * `payctl mcp`: the commands marked as tools, offered over the Model Context Protocol on stdio, behind one
 * layer of rails: reads always; writes only with --allow-writes (a live key also needs --allow-live NAME),
 * each planned by its command's dry run and sent only after a one-time token or the person's answer,
 * within caps taken at the moment of sending, with intent and outcome in a chained audit log.
 */
export async function serveMcp(opts: McpOptions, ctx: Context) {
  const caps = capsOf(opts);
  const creds = await ctx.credentials();
  const profile = creds.source;
  const name = profile.replace(/^profile /, '');
  if (opts.allowWrites && creds.live && opts.allowLive !== name)
    throw new UsageError(
      `${profile} uses a LIVE key: writes through an assistant also need --allow-live ${name} (nothing was started)`,
    );
  const [{ Server }, { StdioServerTransport }, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const rails = new Rails(caps);
  const audit = new AuditLog(auditPath(ctx.paths.state));
  const all = deriveTools(opts.groups);
  /**
   * One call's contexts: what its command notices goes back with its own result. Its plan reads the
   * audit log (verified whole) once, for both of its refund rules.
   */
  const envFor = (): ToolEnv => {
    let records: AuditRecord[] | undefined;
    const read = () => (records ??= verifyAudit(audit.path).records);
    return toolEnv(ctx, opts.groups, all, {
      unknownRefund: (paymentId) => unknownRefundIn(read(), paymentId),
      keyedRefund: (paymentId, key) => keyedRefundIn(read(), paymentId, key),
    });
  };
  const record = (tool: string, args: Record<string, unknown>, event: AuditRecord['event'], extra = {}) =>
    audit.append({ at: new Date(ctx.nowMs()).toISOString(), profile, tool, arguments: args, event, ...extra });
  const writer: Writer = { rails, record, sendingKeys: new Set() };
  const offered = all.filter((t) => opts.allowWrites || !t.write);
  const label = `${profile}${creds.live ? ', LIVE' : ''}`;

  const server = new Server({ name: 'payctl', version: VERSION }, { capabilities: { tools: {} } });

  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({
    tools: [
      ...offered.map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema,
        annotations: t.annotations,
      })),
      ...(opts.allowWrites ? [CONFIRM] : []),
    ],
  }));

  const read = async (tool: DerivedTool, args: Record<string, unknown>, env: ToolEnv): Promise<ToolResult> => {
    const withPage = tool.fields.some((f) => f.name === 'count') ? { count: 10, ...args } : args;
    const data = await dataOf(await runTool(env.groups, tool, withPage, env.ctx));
    const page = Array.isArray(data) ? paged(tool, withPage, data) : {};
    return ok(fromService(data, { ...page, ...(env.notices.length ? { notices: env.notices } : {}) }));
  };

  /** The question for the person: figures, ids and the operation only, never text the service wrote. */
  const question = (tool: DerivedTool, plan: Awaited<ReturnType<typeof planWrite>>) =>
    [
      `payctl (${label}): ${tool.words.join(' ')} ${plan.amountText ?? ''}`.trim(),
      JSON.stringify(plan.args),
      ...(plan.note ? [plan.note] : []),
      'Send it?',
    ]
      .map(cleanText)
      .join('\n');

  const write = async (tool: DerivedTool, args: Record<string, unknown>, env: ToolEnv): Promise<ToolResult> => {
    const plan = await planWrite(tool, args, env);
    const refusal = rails.check(plan);
    if (refusal) {
      record(tool.name, plan.args, 'refused', {
        amount: plan.amount,
        currency: plan.currency,
        message: refusal.message,
      });
      return ok({ outcome: 'refused', cap: refusal.cap, message: `${refusal.message}; nothing was sent` }, true);
    }
    const key = typeof plan.args.idempotency_key === 'string' ? plan.args.idempotency_key : undefined;
    if (server.getClientCapabilities()?.elicitation) {
      const answer = await server.elicitInput({
        message: question(tool, plan),
        requestedSchema: {
          type: 'object',
          properties: { send: { type: 'boolean', title: 'Send it' } },
          required: ['send'],
        },
      });
      if (answer.action !== 'accept' || answer.content?.send !== true) {
        record(tool.name, plan.args, 'declined', { plan, amount: plan.amount, currency: plan.currency, key });
        return ok({ outcome: 'declined', message: 'the person declined: nothing was sent', plan });
      }
      return executeWrite(writer, env, tool, plan);
    }
    record(tool.name, plan.args, 'planned', { plan, amount: plan.amount, currency: plan.currency, key });
    const { token, expiresAt } = rails.issue(plan);
    return ok({
      outcome: 'planned',
      message: 'nothing was sent: show this plan to the person; call `confirm` with the token to carry it out once',
      plan,
      token,
      expires_at: expiresAt,
      notices: env.notices,
    });
  };

  server.setRequestHandler(types.CallToolRequestSchema, async (request): Promise<ToolResult> => {
    const toolName = request.params.name;
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    if (toolName === 'confirm') {
      if (!opts.allowWrites) return fail('this server is read-only: start it with --allow-writes');
      if (typeof args.token !== 'string') return fail('token: a confirmation token is required');
      const redeemed = rails.redeem(args.token);
      if ('error' in redeemed) {
        try {
          record('confirm', { token: `${args.token.slice(0, 8)}…` }, 'refused', { message: redeemed.error });
        } catch {
          // Nothing was sent either way.
        }
        return fail(redeemed.error);
      }
      return executeWrite(
        writer,
        envFor(),
        all.find((t) => t.name === redeemed.plan.tool)!,
        redeemed.plan,
      );
    }
    const tool = all.find((t) => t.name === toolName);
    if (!tool) return fail(`no tool ${toolName}`);
    if (tool.write && !opts.allowWrites)
      return fail(
        `${toolName} is a write and this server is read-only: start it with --allow-writes; nothing was sent`,
      );
    try {
      return await (tool.write ? write(tool, args, envFor()) : read(tool, args, envFor()));
    } catch (err) {
      const text = cleanText(inToolTerms(tool, (err as Error).message ?? String(err)));
      if (!tool.write) return fail(text);
      return fail(/nothing was sent/.test(text) ? text : `${text}; nothing was sent`);
    }
  });

  const transport = new StdioServerTransport(ctx.io.stdin as Readable, ctx.io.stdout as Writable);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    ctx.io.stdin.once('end', () => void server.close());
    ctx.signal.addEventListener('abort', () => void server.close(), { once: true });
  });
  await server.connect(transport);
  ctx.io.stderr.write(
    `payctl mcp: serving ${offered.length + (opts.allowWrites ? 1 : 0)} tools on stdio for ${label} ` +
      `(${opts.allowWrites ? 'writes need a confirmation' : 'read-only'})\n`,
  );
  await closed;
  return { type: 'done' as const };
}
