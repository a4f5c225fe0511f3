import type { Caller, Context } from '../commands/context';
import type { CommandGroup } from '../commands/declare';
import type { CommandResult } from '../commands/result';
import { endpoints } from '../contract/endpoints';
import type { Endpoint } from '../contract/endpoints';
import { formatMoney } from '../output/money';
import { runTool } from './derive';
import type { DerivedTool } from './derive';
import type { Plan } from './rails';

/** What a tool runs with: the CLI's own context, and two made from it for planning and for sending. */
export interface ToolEnv {
  /** The command groups the tools come from: a tool runs its command from their declarations. */
  groups: readonly CommandGroup[];
  ctx: Context;
  /** --dry-run, as the assistant's caller: a handler run in it returns the requests it would send, and sends nothing. */
  planning: Context;
  /** Confirmed: the handler sends without asking (the confirmation was the token or the human). */
  sending: Context;
  /** What the command said on the way (payctl's own lines), handed back with this call's result. */
  notices: string[];
}

/** How an assistant runs a command: its tool, with the tool's own field names (`payments_get {"payment_id": …}`). */
function toolCall(tools: readonly DerivedTool[], words: string[], args: Record<string, string>): string {
  const tool = tools.find((t) => t.words.join(' ') === words.join(' '));
  if (!tool) throw new Error(`no tool runs \`payctl ${words.join(' ')}\``);
  const named = Object.entries(args).map(([name, value]) => {
    const field = tool.fields.find((f) => f.cli === (f.kind === 'argument' ? name : `--${name}`));
    return `${JSON.stringify(field?.name ?? name)}: ${JSON.stringify(value)}`;
  });
  return `${tool.name} {${named.join(', ')}}`;
}

/**
 * One tool call's contexts, made from the process's: no terminal (stdin and stdout are the protocol's,
 * so nothing may prompt or guide), notices kept for the call's result, and for planning the assistant as
 * the caller: the refunds its audit log holds as unknown, and its tools as the way to run a command.
 */
export function toolEnv(
  ctx: Context,
  groups: readonly CommandGroup[],
  tools: readonly DerivedTool[],
  refunds: Pick<Caller, 'unknownRefund' | 'keyedRefund'>,
): ToolEnv {
  const notices: string[] = [];
  const io = { ...ctx.io, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false };
  const base: Context = {
    ...ctx,
    notice: (m: string) => void notices.push(m),
    io,
    settings: { ...ctx.settings, out: undefined, fields: undefined },
  };
  const caller: Caller = {
    unknownRefund: (id) => refunds.unknownRefund(id),
    keyedRefund: (id, key) => refunds.keyedRefund(id, key),
    command: (words, args) => toolCall(tools, words, args),
  };
  return {
    groups,
    ctx: base,
    planning: { ...base, caller, settings: { ...base.settings, dryRun: true, yes: true } },
    sending: { ...base, settings: { ...base.settings, dryRun: false, yes: true }, confirm: async () => undefined },
    notices,
  };
}

/**
 * Plans a write by running its command's dry run (with `--read` where the command reads its plan's
 * figures now): what it would send is the plan, and what it fixed (a refund's amount and key) goes into
 * the arguments the confirmed send runs the command with.
 */
export async function planWrite(tool: DerivedTool, args: Record<string, unknown>, env: ToolEnv): Promise<Plan> {
  const result = await runTool(env.groups, tool, args, env.planning, tool.planWith);
  if (result.type !== 'dry-run') throw new Error(`${tool.name}: its command did not plan`);
  const fixed = Object.entries(result.fixed ?? {}).map(([option, value]) => {
    const field = tool.fields.find((f) => f.cli === `--${option}`);
    if (!field) throw new Error(`${tool.name}: its plan fixes --${option}, which the tool does not take`);
    return [field.name, value] as const;
  });
  const moving = result.requests.find((r) => (endpoints[r.endpoint] as Endpoint).moves);
  const body = (moving?.body ?? {}) as { amount?: unknown; currency?: unknown; transfers?: { amount?: unknown }[] };
  const amount = moving ? Number(body.amount ?? body.transfers?.[0]?.amount ?? 0) : 0;
  if (!Number.isSafeInteger(amount) || amount < 0) throw new Error(`${tool.name}: the plan's amount is not known`);
  const currency = typeof body.currency === 'string' ? body.currency : (result.state?.currency as string | undefined);
  const shown = currency ?? (moving ? 'INR' : undefined);
  return {
    tool: tool.name,
    args: { ...args, ...Object.fromEntries(fixed) },
    requests: result.requests.map((r) => ({ method: r.method, path: r.path, body: r.body })),
    amount,
    currency: shown,
    amountText: shown ? formatMoney(amount, shown) : undefined,
    state: result.state,
    note: result.note,
  };
}

/** What a command's result holds, as data: one record, a page of records, or what a dry run would send. */
export async function dataOf(result: CommandResult): Promise<unknown> {
  switch (result.type) {
    case 'one':
      await result.finish?.();
      return result.data;
    case 'many': {
      const items: unknown[] = [];
      for await (const item of result.items) items.push(item);
      await result.finish?.();
      return items;
    }
    case 'dry-run':
      return { requests: result.requests.map((r) => ({ method: r.method, path: r.path, body: r.body })) };
    case 'lines':
      return result.json ?? result.lines;
    case 'done':
      return { message: result.message ?? 'done' };
    default:
      throw new Error(`unexpected result ${result.type}`);
  }
}
