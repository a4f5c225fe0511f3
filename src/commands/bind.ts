import type { OptionValues } from 'commander';
import type { Context } from './context';
import type { CommandResult } from './result';

/** What commander parsed for one command: its positional arguments (variadic ones flattened) and options. */
export interface Parsed {
  args: string[];
  opts: OptionValues;
}

/** A command's work: typed options in, data out (rendered by src/cli). It never reads argv or exits. */
export type Handler<O> = (opts: O, ctx: Context) => Promise<CommandResult>;

/**
 * Binds a declared command to its handler: `load` imports the handler's module only when the command
 * runs (the compiler checks the export it names), `options` turns what commander parsed into the
 * handler's typed options.
 */
export type Bind = <O>(
  load: () => Promise<Handler<O>>,
  options: (parsed: Parsed) => O,
) => (...params: unknown[]) => Promise<void>;
