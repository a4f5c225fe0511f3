import type { Command, CommandUnknownOpts, OptionValues } from '@commander-js/extra-typings';
import type { Bind } from './bind';
import type { PageOptions } from './listing';

/** Repeatable options (`--note a=1 --note b=2`) collect their values in order. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The "Examples:" section of a command's help. */
export const examples = (...lines: string[]) => `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}`;

/** A command of a group: its name, its line in the group's help, and the examples its own help ends with. */
export const verb = (group: CommandUnknownOpts, name: string, description: string, lines: string[]) =>
  group
    .command(name)
    .description(description)
    .addHelpText('after', examples(...lines));

/**
 * The handlers of a module that is imported only when one of its commands runs: `run('listOrders')` is
 * the loader `bind` takes. The compiler checks the name against the module's exports, and `bind` checks
 * that the export is a handler.
 */
export type Handlers<M> = <K extends keyof M>(name: K) => () => Promise<M[K]>;

export const lazy =
  <M>(load: () => Promise<M>): Handlers<M> =>
  (name) =>
  async () =>
    (await load())[name];

/** A command group, `payctl NAME`: its line in the root help, and what declares its commands. */
export interface CommandGroup {
  name: string;
  /** All that `payctl --help` declares of the group (none: the group is always declared whole). */
  summary?: string;
  declare(program: CommandUnknownOpts, bind: Bind): void;
}

/**
 * A command group declared in its own folder: its name, its summary, the loader of its handlers' module
 * (imported only when one of its commands runs, a chunk of its own in dist/, so declaring the commands
 * loads none of them), and what declares its commands, given the group, `bind`, and `run` naming the
 * module's handlers (checked by the compiler against the module's exports).
 */
export const group = <M>(
  name: string,
  summary: string,
  handlers: () => Promise<M>,
  declare: (group: Command, bind: Bind, run: Handlers<M>) => void,
): CommandGroup => ({
  name,
  summary,
  declare: (program, bind) => declare(program.command(name).description(summary), bind, lazy(handlers)),
});

/** The named options as commander parsed them, under the same names (`--fund-account` is `fundAccount`). */
export const pick = <O extends OptionValues, K extends keyof O & string>(opts: O, ...names: K[]) =>
  Object.fromEntries(names.map((name) => [name, opts[name]])) as Pick<O, K>;

/** The page options as `listOptions` declares them. */
export type PageFlags = {
  from?: string;
  to?: string;
  count?: string;
  skip?: string;
  all?: true;
  limit?: string;
};

/** What every list command's page options hold (--from, --to, --count, --skip, --all, --limit). */
export const pageOptions = (o: PageFlags): PageOptions => ({
  ...pick(o, 'from', 'to', 'count', 'skip', 'limit'),
  all: Boolean(o.all),
});

/** What makes a declared command an assistant tool (`payctl mcp`): see `tool`. */
export interface ToolMark {
  /** The endpoint the command calls (src/contract/endpoints.ts): its method says read or write, `moves` money. */
  endpoint: string;
  /** The arguments and options offered to the assistant, `name` or `name:field` (`id:payment_id`). */
  fields: string[];
}

export const TOOL_MARK = Symbol('payctl.tool');

/**
 * Marks the declared command `GROUP VERB` as an assistant tool, one line after its declaration: `payctl mcp`
 * offers it as `GROUP_VERB`, with its description, input schema, read or write and annotations derived from
 * the declaration and the endpoint, and runs its own handler. Only the named arguments and options are
 * offered (bulk, file and journal options never are).
 */
export function tool(group: CommandUnknownOpts, verb: string, endpoint: string, ...fields: string[]) {
  const command = group.commands.find((c) => c.name() === verb);
  if (!command) throw new Error(`tool: ${group.name()} has no command ${verb}`);
  Object.assign(command, { [TOOL_MARK]: { endpoint, fields } satisfies ToolMark });
}
