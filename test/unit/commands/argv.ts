import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { createProgram } from '../../../src/cli/program';
import type { Bind } from '../../../src/commands/bind';
import type { IO } from '../../../src/commands/context';

/**
 * What the handler of `payctl ARGV` is given, as gh tests its commands: the real program parses the
 * argv, and the command's own mapping turns commander's parse into the handler's typed options. Nothing
 * runs: the handler is never loaded.
 */
export function optionsOf(argv: string[]): Promise<unknown> {
  let got: unknown;
  const bind: Bind = (_load, options) =>
    (async (...params: unknown[]) => {
      const cmd = params.at(-1) as CommandUnknownOpts;
      got = options({ args: cmd.processedArgs, opts: cmd.opts() } as unknown as Parameters<typeof options>[0]);
    }) as never;
  const io = { stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false } as IO;
  const program = createProgram(bind, io, {}, argv);
  return program.parseAsync(argv, { from: 'user' }).then(() => got);
}
