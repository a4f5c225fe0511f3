import { VERSION } from '../version';
import type { IO } from '../commands/context';

/**
 * The entry point. `payctl --version` answers before anything else loads (scripts call it to check
 * the tool is there); every other invocation loads the command tree in ./program.
 */
export async function main(argv: string[], io?: IO, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    (io?.stdout ?? process.stdout).write(`${VERSION}\n`);
    return 0;
  }
  const { runProgram } = await import('./run');
  return runProgram(argv, io, env);
}
