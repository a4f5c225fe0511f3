import type { Command, OptionValues } from 'commander';
import type { Bind } from './bind';
import type { PageOptions } from './listing';

/** Repeatable options (`--note a=1 --note b=2`) collect their values in order. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The "Examples:" section of a command's help. */
export const examples = (...lines: string[]) => `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}`;

/** A command of a group: its name, its line in the group's help, and the examples its own help ends with. */
export const verb = (group: Command, name: string, description: string, lines: string[]) =>
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

/**
 * Where each command group's handlers live. A module is imported only when one of its commands runs
 * (it is a chunk of its own in dist/), so declaring the commands loads none of them.
 */
const HANDLERS = {
  orders: () => import('./orders/handlers'),
  payments: () => import('./payments/handlers'),
  refunds: () => import('./refunds/handlers'),
  plans: () => import('./plans/handlers'),
  subscriptions: () => import('./subscriptions/handlers'),
  wallet: () => import('./wallet/handlers'),
  profile: () => import('./profile/handlers'),
  sandbox: () => import('./sandbox/handlers'),
};

type Modules = { [N in keyof typeof HANDLERS]: Awaited<ReturnType<(typeof HANDLERS)[N]>> };
// The same table typed per group, so that the compiler sees `loaders[name]` load group N's own module.
const loaders: { [N in keyof Modules]: () => Promise<Modules[N]> } = HANDLERS;

/**
 * A command group, `payctl NAME`: its line in the root help (all that `payctl --help` declares of it) and
 * what declares its commands, given the group, `bind`, and `run` naming the handlers of the group's module.
 */
export const group =
  <N extends keyof Modules>(
    name: N,
    summary: string,
    declare: (group: Command, bind: Bind, run: Handlers<Modules[N]>) => void,
  ) =>
  (program: Command, bind: Bind) =>
    declare(program.command(name).description(summary), bind, lazy(loaders[name]));

/** The named options as commander parsed them, under the same names (`--fund-account` is `fundAccount`). */
export const pick = <K extends string>(opts: OptionValues, ...names: K[]) =>
  Object.fromEntries(names.map((name) => [name, opts[name]])) as { [N in K]: OptionValues[N] };

/** What every list command's page options hold (--from, --to, --count, --skip, --all, --limit). */
export const pageOptions = (o: OptionValues): PageOptions => ({
  ...pick(o, 'from', 'to', 'count', 'skip', 'limit'),
  all: Boolean(o.all),
});
