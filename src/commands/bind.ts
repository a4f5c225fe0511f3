import type { CommandUnknownOpts, OptionValues } from '@commander-js/extra-typings';
import type { Context } from './context';
import type { CommandResult } from './result';

/**
 * What commander parsed for one command, typed by its declaration: its positional arguments as
 * declared (`<id>` a string, `[id]` maybe undefined, `[id...]` an array) and its options under their
 * names (`--fund-account <id>` is `fundAccount?: string`), so a misspelt name does not compile.
 */
export interface Parsed<A extends unknown[] = unknown[], O extends OptionValues = OptionValues> {
  args: A;
  opts: O;
}

/** A command's work: typed options in, data out (rendered by src/cli). It never reads argv or exits. */
export type Handler<O> = (opts: O, ctx: Context) => Promise<CommandResult>;

/**
 * Binds a declared command to its handler, as its action: `load` imports the handler's module only when
 * the command runs (the compiler checks the export it names), `options` turns what commander parsed into
 * the handler's typed options. The arguments and options are typed from the command the action is on.
 */
export type Bind = <H, A extends unknown[], O extends OptionValues>(
  load: () => Promise<Handler<H>>,
  options: (parsed: Parsed<A, O>) => H,
) => string extends keyof O
  ? // Options typed only as "any name" (declared through something that lost their type): not an action.
    'the options of this command are untyped'
  : (...params: [...A, O, CommandUnknownOpts]) => Promise<void>;
