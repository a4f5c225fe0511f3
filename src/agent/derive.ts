import { Command, CommanderError } from '@commander-js/extra-typings';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Bind } from '../commands/bind';
import { TOOL_MARK, collect } from '../commands/declare';
import type { CommandGroup, ToolMark } from '../commands/declare';
import type { Context } from '../commands/context';
import type { CommandResult } from '../commands/result';
import { endpoints } from '../contract/endpoints';
import type { EndpointName } from '../contract/endpoints';
import { UsageError } from '../contract/errors';
import { isJsonObject } from '../contract/values/json';

/** One input of a tool: a positional argument, an option taking a value, a flag, or a repeatable option. */
export interface Field {
  name: string;
  kind: 'argument' | 'value' | 'flag' | 'list';
  /** The option's long name (`--amount`), or the argument's name. */
  cli: string;
  description: string;
  required: boolean;
  choices?: readonly string[];
  /** A whole number (`--count <n>`, `--amount <amount>`): given as a number or as its digits. */
  whole?: boolean;
}

/** A declared command offered as a tool: everything here comes from its declaration and its endpoint. */
export interface DerivedTool {
  name: string;
  /** The words that run it: `payments refund`. */
  words: string[];
  description: string;
  endpoint: EndpointName;
  write: boolean;
  moves: boolean;
  fields: Field[];
  /** What its command's dry run is given to plan: `--read` where the plan's figures are read now. */
  planWith: string[];
  inputSchema: { type: 'object'; properties: Record<string, object>; required?: string[]; additionalProperties: false };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

type Marked = CommandUnknownOpts & { [TOOL_MARK]?: ToolMark };

/**
 * The command tree of `groups` (only the group named `only`, when given), each command bound by `bind`.
 * What commander itself says (an error) is collected in `said`, never written: stdout is the protocol's.
 */
function treeOf(groups: readonly CommandGroup[], bind: Bind, said: string[], only?: string): CommandUnknownOpts {
  const root = new Command();
  for (const group of groups) if (only === undefined || group.name === only) group.declare(root, bind);
  const quiet = (command: CommandUnknownOpts) => {
    command.exitOverride();
    command.configureOutput({
      writeOut: (s) => said.push(s),
      writeErr: (s) => said.push(s),
      outputError: (s, write) => write(s.trim().replace(/^error: /, '')),
    });
    command.commands.forEach(quiet);
  };
  quiet(root);
  return root;
}

function fieldsOf(command: CommandUnknownOpts, mark: ToolMark, tool: string): Field[] {
  return mark.fields.map((spec) => {
    const [cli, alias] = spec.split(':') as [string, string | undefined];
    const name = alias ?? cli.replace(/-/g, '_');
    const argument = command.registeredArguments.find((a) => a.name() === cli);
    if (argument) return { name, kind: 'argument', cli, description: argument.description, required: true };
    const option = command.options.find((o) => o.long === `--${cli}`);
    if (!option) throw new Error(`${tool}: its command has no argument or option ${cli}`);
    const kind = option.parseArg === collect ? 'list' : option.required || option.optional ? 'value' : 'flag';
    return {
      name,
      kind,
      cli: option.long!,
      description: option.description,
      required: option.mandatory,
      choices: option.argChoices,
      whole: /<(n|amount|minor)>$/.test(option.flags),
    };
  });
}

function schemaOf(field: Field): object {
  const base = { description: field.description };
  if (field.kind === 'flag') return { ...base, type: 'boolean' };
  if (field.kind === 'list') return { ...base, type: 'array', items: { type: 'string' } };
  if (field.choices) return { ...base, type: 'string', enum: field.choices };
  return { ...base, type: field.whole ? ['integer', 'string'] : 'string' };
}

function derive(command: Marked, words: string[], mark: ToolMark): DerivedTool {
  const name = words.join('_').replace(/-/g, '_');
  if (!(mark.endpoint in endpoints)) throw new Error(`${name}: no endpoint ${mark.endpoint}`);
  const endpoint = mark.endpoint as EndpointName;
  const declared = endpoints[endpoint] as { method: string; moves?: boolean; path: string };
  const write = declared.method !== 'GET';
  const moves = declared.moves === true;
  const fields = fieldsOf(command, mark, name);
  const keyed = command.options.some((o) => o.long === '--idempotency-key');
  const description = write
    ? `${command.description()}. Returns a plan (nothing is sent) and a one-time token: only \`confirm\` with ` +
      'the token carries it out, within the caps this server was started with.'
    : `${command.description()}.`;
  return {
    name,
    words,
    description,
    endpoint,
    write,
    moves,
    fields,
    planWith: write && command.options.some((o) => o.long === '--read') ? ['--read'] : [],
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries(fields.map((f) => [f.name, schemaOf(f)])),
      ...(fields.some((f) => f.required) ? { required: fields.filter((f) => f.required).map((f) => f.name) } : {}),
      additionalProperties: false,
    },
    annotations: {
      readOnlyHint: !write,
      // Creating a record adds; moving money or cancelling changes what exists.
      destructiveHint: write && (moves || !/^create/.test(endpoint)),
      idempotentHint: !write || keyed,
      openWorldHint: true,
    },
  };
}

/** Every command marked as a tool, in the order of the command tree. */
export function deriveTools(groups: readonly CommandGroup[]): DerivedTool[] {
  const program = treeOf(groups, (() => () => undefined) as unknown as Bind, []);
  const tools: DerivedTool[] = [];
  const walk = (command: Marked, words: string[]) => {
    const mark = command[TOOL_MARK];
    if (mark) tools.push(derive(command, words, mark));
    for (const sub of command.commands) walk(sub as Marked, [...words, sub.name()]);
  };
  for (const group of program.commands) walk(group as Marked, [group.name()]);
  return tools;
}

const text = (field: Field, value: unknown): string => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new UsageError(`${field.name}: must be a string`);
};

/** The command line the tool's arguments stand for: options as `--name=value`, positionals after `--`. */
export function argvOf(tool: DerivedTool, args: Record<string, unknown>): string[] {
  const unknown = Object.keys(args).filter((k) => !tool.fields.some((f) => f.name === k));
  if (unknown.length)
    throw new UsageError(
      `${unknown[0]}: no such field; ${tool.name} takes ${tool.fields.map((f) => f.name).join(', ')}`,
    );
  const options: string[] = [];
  const positionals: string[] = [];
  for (const field of tool.fields) {
    const value = args[field.name];
    if (value === undefined || value === null) {
      if (field.required) throw new UsageError(`${field.name}: required`);
      continue;
    }
    if (field.kind === 'argument') positionals.push(text(field, value));
    else if (field.kind === 'value') options.push(`${field.cli}=${text(field, value)}`);
    else if (field.kind === 'flag') {
      if (typeof value !== 'boolean') throw new UsageError(`${field.name}: must be true or false`);
      if (value) options.push(field.cli);
    } else {
      // Notes as an object ({reason: "damaged"}) or as the CLI's `key=value` strings.
      const items = isJsonObject(value)
        ? Object.entries(value).map(([k, v]) => `${k}=${text(field, v)}`)
        : Array.isArray(value)
          ? value.map((v) => text(field, v))
          : [text(field, value)];
      for (const item of items) options.push(`${field.cli}=${item}`);
    }
  }
  return [...tool.words, ...options, '--', ...positionals];
}

/** A CLI message in the tool's terms: `--payment` is `payment_id`, `--amount` is `amount`. */
export function inToolTerms(tool: DerivedTool, message: string): string {
  let out = message;
  for (const f of tool.fields)
    out = f.kind === 'argument' ? out.replace(`'${f.cli}'`, f.name) : out.split(f.cli).join(f.name);
  return out;
}

/**
 * Runs the tool's own command: the same parser (its choices and required options), the same options
 * mapping and the same handler as `payctl GROUP VERB`, with the context given (planning or sending),
 * and `extra` options after its words (a plan's `--read`).
 */
export async function runTool(
  groups: readonly CommandGroup[],
  tool: DerivedTool,
  args: Record<string, unknown>,
  ctx: Context,
  extra: string[] = [],
): Promise<CommandResult> {
  const argv = argvOf(tool, args);
  argv.splice(tool.words.length, 0, ...extra);
  let result: CommandResult | undefined;
  const bind = ((
      load: () => Promise<(o: unknown, c: Context) => Promise<CommandResult>>,
      options: (p: unknown) => unknown,
    ) =>
    async (...params: unknown[]) => {
      const command = params[params.length - 1] as CommandUnknownOpts;
      const parsed = { args: command.processedArgs, opts: command.opts() };
      result = await (await load())(options(parsed), ctx);
    }) as unknown as Bind;
  const said: string[] = [];
  const program = treeOf(groups, bind, said, tool.words[0]);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) throw new UsageError(inToolTerms(tool, said.join(' ').trim() || err.message));
    throw err;
  }
  if (!result) throw new Error(`${tool.name}: its command ran no handler`);
  return result;
}
