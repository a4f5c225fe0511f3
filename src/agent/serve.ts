import type { Readable, Writable } from 'node:stream';
import * as z from 'zod/mini';
import type { Context } from '../commands/context';
import { intFlag } from '../commands/flags';
import { ApiError, UsageError } from '../contract/errors';
import { VERSION } from '../version';
import { AuditLog, auditPath } from './audit';
import type { AuditRecord } from './audit';
import { Rails } from './rails';
import type { Caps, Plan } from './rails';
import { TOOLS } from './tools';
import type { Tool, ToolEnv } from './tools';

/** The flags of `payctl mcp` as given: checked here, so that declaring the command loads no parser. */
export interface McpOptions {
  allowWrites: boolean;
  allowLive?: string;
  maxAmount?: string;
  maxTotal?: string;
  maxWrites?: string;
  tokenTtl: string;
}

export function capsOf(opts: McpOptions): Caps {
  return {
    maxAmount: intFlag(opts.maxAmount, '--max-amount', 0),
    maxTotal: intFlag(opts.maxTotal, '--max-total', 0),
    maxWrites: intFlag(opts.maxWrites, '--max-writes', 0),
    tokenTtlMs: intFlag(opts.tokenTtl, '--token-ttl', 1, 86_400) * 1000,
  };
}

type ToolResult = {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

const ok = (value: unknown): ToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
  structuredContent:
    value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value },
});
const fail = (message: string): ToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

/** A flag named in a CLI error (`--amount: …`) is the tool's field (`amount: …`) here. */
const inFieldTerms = (message: string) =>
  message
    .replace(/--(customer|fund-account|payment|subscription)\b/g, (_, f: string) => `${f.replace('-', '_')}_id`)
    .replace(/--([a-z][a-z-]*)/g, (_, f: string) => f.replace(/-/g, '_'));

const CONFIRM = z.object({
  token: z.string().register(z.globalRegistry, { description: 'the token a write tool returned' }),
});

/**
 * `payctl mcp`: payctl's operations as Model Context Protocol tools over stdio. Reads always; writes
 * only with --allow-writes, and then never in one call: a write tool returns a plan and a one-time
 * token bound to it, and only `confirm` with the token sends it (or the human, asked through the
 * client's elicitation). Caps bound what a session can move; every write is in the audit log.
 */
export async function serveMcp(opts: McpOptions, ctx: Context) {
  const caps = capsOf(opts);
  const creds = await ctx.credentials();
  const profile = creds.source;
  if (opts.allowWrites && creds.live && opts.allowLive !== profile.replace(/^profile /, ''))
    throw new UsageError(
      `${profile} is a LIVE profile: writes through an assistant also need --allow-live ${profile.replace(/^profile /, '')}`,
    );
  const [{ Server }, { StdioServerTransport }, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const rails = new Rails(caps);
  const audit = new AuditLog(auditPath(ctx.paths.state));
  const secret = creds.keySecret;
  const clean = (text: string) => (secret ? text.split(secret).join('[redacted]') : text);
  const notices: string[] = [];
  const quiet = { notice: (m: string) => notices.push(m) };
  const env: ToolEnv = {
    ctx: { ...ctx, ...quiet },
    planning: { ...ctx, ...quiet, settings: { ...ctx.settings, dryRun: true, yes: true } },
    sending: {
      ...ctx,
      ...quiet,
      settings: { ...ctx.settings, dryRun: false, yes: true },
      confirm: async () => undefined,
    },
    api: () => ctx.api(),
  };
  const tools = TOOLS.filter((t) => opts.allowWrites || !t.write);
  const log = (
    tool: string,
    args: Record<string, unknown>,
    event: AuditRecord['event'],
    extra: Partial<AuditRecord> = {},
  ) => audit.append({ at: new Date(ctx.nowMs()).toISOString(), profile, tool, arguments: args, event, ...extra });

  const server = new Server({ name: 'payctl', version: VERSION }, { capabilities: { tools: {} } });

  const execute = async (tool: Tool, plan: Plan): Promise<ToolResult> => {
    log(tool.name, plan.args, 'sending', { plan, amount: plan.amount, currency: plan.currency });
    try {
      const data = await tool.execute!(plan, env);
      const id = (data as { id?: unknown } | null)?.id;
      log(tool.name, plan.args, 'done', {
        amount: plan.amount,
        currency: plan.currency,
        result_id: typeof id === 'string' ? id : undefined,
      });
      return ok({ outcome: 'done', result: data, notices: notices.splice(0) });
    } catch (err) {
      const message = clean(inFieldTerms((err as Error).message ?? String(err)));
      const refused = err instanceof ApiError || err instanceof UsageError;
      if (refused) rails.release(plan);
      log(tool.name, plan.args, refused ? 'failed' : 'unknown', {
        amount: plan.amount,
        currency: plan.currency,
        message,
      });
      const hint = (err as { hint?: string }).hint;
      return fail(`${refused ? 'not done' : 'outcome unknown'}: ${message}${hint ? ` (${clean(hint)})` : ''}`);
    }
  };

  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({
    tools: [
      ...tools.map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: z.toJSONSchema(t.input) as { type: 'object' },
        annotations: { readOnlyHint: !t.write, destructiveHint: t.write },
      })),
      ...(opts.allowWrites
        ? [
            {
              name: 'confirm',
              description:
                'Carry out the plan a write tool returned, once: give its token. Tokens expire and cannot be reused.',
              inputSchema: z.toJSONSchema(CONFIRM) as { type: 'object' },
              annotations: { readOnlyHint: false, destructiveHint: true },
            },
          ]
        : []),
    ],
  }));

  server.setRequestHandler(types.CallToolRequestSchema, async (request) => {
    const name = request.params.name;
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    if (name === 'confirm') {
      if (!opts.allowWrites) return fail('this server is read-only: start it with --allow-writes');
      const parsed = CONFIRM.safeParse(args);
      if (!parsed.success) return fail('token: a confirmation token is required');
      const redeemed = rails.redeem(parsed.data.token);
      if ('error' in redeemed) {
        log('confirm', { token: `${parsed.data.token.slice(0, 8)}…` }, 'refused', { message: redeemed.error });
        return fail(redeemed.error);
      }
      return execute(
        tools.find((t) => t.name === redeemed.plan.tool)!,
        redeemed.plan,
      );
    }
    const tool = TOOLS.find((t) => t.name === name);
    if (!tool) return fail(`no tool ${name}`);
    if (tool.write && !opts.allowWrites)
      return fail(`${name} is a write and this server is read-only: start it with --allow-writes; nothing was sent`);
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return fail(`${issue.path.join('.') || 'arguments'}: ${issue.message}; nothing was sent`);
    }
    try {
      if (!tool.write) return ok(await tool.read!(parsed.data as Record<string, unknown>, env));
      const plan = await tool.plan!(parsed.data as Record<string, unknown>, env);
      const refusal = rails.check(plan);
      if (refusal) {
        log(name, args, 'refused', { plan, amount: plan.amount, currency: plan.currency, message: refusal.message });
        return fail(`${refusal.message}; nothing was sent`);
      }
      if (server.getClientCapabilities()?.elicitation) {
        const answer = await server.elicitInput({
          message: `payctl (${profile}${creds.live ? ', LIVE' : ''}): ${name} ${plan.amountText ?? ''}\n${JSON.stringify(plan.requests)}\nSend it?`,
          requestedSchema: {
            type: 'object',
            properties: { send: { type: 'boolean', title: 'Send it' } },
            required: ['send'],
          },
        });
        if (answer.action !== 'accept' || answer.content?.send !== true) {
          log(name, args, 'declined', { plan, amount: plan.amount, currency: plan.currency });
          return ok({ outcome: 'declined', message: 'the person declined: nothing was sent', plan });
        }
        rails.reserve(plan);
        return execute(tool, plan);
      }
      const { token, expiresAt } = rails.issue(plan);
      log(name, args, 'planned', { plan, amount: plan.amount, currency: plan.currency });
      return ok({
        outcome: 'planned',
        message: 'nothing was sent: show this plan to the person; call `confirm` with the token to carry it out once',
        plan,
        token,
        expires_at: expiresAt,
        notices: notices.splice(0),
      });
    } catch (err) {
      const text = clean(inFieldTerms((err as Error).message ?? String(err)));
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
    `payctl mcp: serving ${tools.length + (opts.allowWrites ? 1 : 0)} tools on stdio for ${profile} (${opts.allowWrites ? 'writes need a confirmation' : 'read-only'})\n`,
  );
  await closed;
  return { type: 'done' as const };
}
