import { VERSION } from '../version';
import type { IO } from '../commands/context';
import { loadRun } from './load-run';
import { commandWords } from './global-options';

/**
 * Defined by the builds: where the rest of the program is, `file` where this is dist/cli.cjs with it in
 * dist/run.cjs (scripts/build.mjs), `asset` in the single executable, which carries it as an asset
 * (scripts/build-exe.mjs). From source, it is imported.
 */
declare const __PAYCTL_RUN__: 'file' | 'asset' | undefined;

const isHelp = (word: string | undefined) => word === '--help' || word === '-h';

/**
 * The entry point. `payctl --version` answers before anything else loads (scripts call it to check
 * the tool is there), and `payctl --help`, `payctl GROUP --help` and `payctl help GROUP` from what the
 * build baked in (./baked-help); every other invocation loads the command tree in ./program.
 */
export async function main(argv: string[], io?: IO, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const only = argv.length === 1 ? argv[0] : undefined;
  if (only === '--version' || only === '-V') {
    writeOut(`${VERSION}\n`, io);
    return 0;
  }
  const group = argv.length === 2 ? (isHelp(argv[1]) ? argv[0] : argv[0] === 'help' ? argv[1] : undefined) : undefined;
  if (isHelp(only) || (group !== undefined && !group.startsWith('-'))) {
    const help = (await import('./baked-help')).bakedHelp(group, io);
    if (help !== undefined) {
      writeOut(help, io);
      return 0;
    }
  }
  // Built, the rest of the program is the file beside this one (or the executable's asset), loaded as
  // CommonJS with a code cache of its own (./load-run): an import() of it would go through the ES module
  // loader, which first scans a CommonJS file whole for its export names.
  const { runProgram }: typeof import('./run') =
    typeof __PAYCTL_RUN__ === 'string'
      ? loadRun(__PAYCTL_RUN__ === 'file' ? { file: `${__dirname}/run.cjs` } : { asset: 'run.cjs' }, commandWords(argv))
      : await import('./run');
  return runProgram(argv, io, env);
}

/**
 * Writes the one answer of `--version` or `--help`: to `io`, or straight to fd 1, which spares building
 * process.stdout (a stream, a few milliseconds). A closed pipe ends the output quietly, as elsewhere.
 */
function writeOut(text: string, io: IO | undefined) {
  if (io) {
    io.stdout.write(text);
    return;
  }
  const { writeSync } = process.getBuiltinModule('node:fs');
  let rest = Buffer.from(text);
  try {
    while (rest.length) rest = rest.subarray(writeSync(1, rest));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') return;
    // A stdout its parent left non-blocking may refuse a write for now: the stream waits until it can.
    if (code === 'EAGAIN') process.stdout.write(rest);
    else throw err;
  }
}
