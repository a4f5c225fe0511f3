import { CommanderError } from '@commander-js/extra-typings';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Bind } from '../commands/bind';
import type { IO } from '../commands/context';
import { WritesInFlight } from '../commands/writes-in-flight';
import { Interrupt, OutputClosedError } from '../commands/aborts';
import { exitCodeOf } from './exit-codes';
import { createProgram } from './program';
import { failedOutput, report } from './report';
import type { GlobalFlags } from './settings';
import { guardedStdout } from './signals';

const isatty = (fd: number) => process.getBuiltinModule('node:tty').isatty(fd);

/**
 * Runs one invocation and resolves to its exit code. Given `io` (tests, fuzzing) it stays in-process:
 * no signal handlers, no exit. Without it, it owns the process and exits with that code.
 */
export async function runProgram(argv: string[], io?: IO, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const controller = new AbortController();
  let signalName: 'SIGINT' | 'SIGTERM' | undefined;
  let outputFailure: NodeJS.ErrnoException | undefined;
  const writes = new WritesInFlight();
  const streams: IO = io ?? {
    // A failed stdout stops the run (no new items; those in flight finish and are recorded): exit 7 for
    // a bulk run, quietly 0 for a reader that only wanted the first lines of a listing.
    stdout: guardedStdout(process.stdout, (err) => {
      outputFailure = err;
      if (!controller.signal.aborted) controller.abort(new OutputClosedError(err.code ?? 'EIO'));
    }),
    // Node builds process.stdin and process.stderr on first use, a few milliseconds each: a command
    // that reads no input and writes no error (most of them) never pays for them.
    get stderr() {
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    // Asked when needed: node:tty loads node:net with it, which `--help` into a file never needs.
    get stdinIsTTY() {
      return isatty(0);
    },
    get stdoutIsTTY() {
      return Boolean(process.stdout.isTTY);
    },
    get stderrIsTTY() {
      return isatty(2);
    },
  };
  // Libraries colour on their own (the prompts' theme goes through util.styleText, which reads
  // NO_COLOR): --no-color must reach them too.
  if (!io && argv.includes('--no-color')) process.env.NO_COLOR = '1';
  if (!io) {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) {
      process.on(sig, () => {
        if (signalName) process.exit(exitCodeOf(undefined, sig));
        signalName = sig;
        if (!controller.signal.aborted) controller.abort(new Interrupt(sig));
        writes.onInterrupt(streams.stderr);
      });
    }
  }
  let wantJson = false;
  let debug = false;
  let verb: string | undefined;

  // The action's parameters are typed by the command's declaration (see Bind); here they are commander's.
  const bind: Bind = (load, options) =>
    (async (...params: unknown[]) => {
      const command = params[params.length - 1] as CommandUnknownOpts;
      const flags = command.optsWithGlobals() as GlobalFlags;
      debug = Boolean(flags.debug);
      verb = command.name();
      wantJson = (flags.output ?? env.PAYCTL_OUTPUT) === 'json';
      const [{ settingsFrom }, { createRuntime }, { renderResult }, handler] = await Promise.all([
        import('./settings'),
        import('../commands/runtime'),
        import('./render-result'),
        load(),
      ]);
      const settings = settingsFrom(flags, env, streams);
      wantJson = settings.formatChosen && settings.format === 'json';
      const runtime = createRuntime(settings, streams, controller.signal, writes);
      try {
        // Before the handler sends anything: exit 2 must mean nothing was sent.
        if (flags.out !== undefined) await (await import('../output/atomic-file')).checkOutTarget(String(flags.out));
        // Commander's parse, typed by the command's declaration (see Bind).
        const parsed = { args: command.processedArgs, opts: command.opts() } as unknown as Parameters<
          typeof options
        >[0];
        const result = await handler(options(parsed), runtime);
        await renderResult(result, settings, streams);
      } finally {
        await runtime.dispose();
      }
    }) as never;

  // commander's `help` looks one level deep:
  // `payctl help wallet statement` must match `payctl wallet statement --help`.
  if (argv[0] === 'help' && argv.length > 1) argv = [...argv.slice(1), '--help'];
  const program = createProgram(bind, streams, env, argv);

  let code = 0;
  try {
    await program.parseAsync(argv, { from: 'user' });
    if (signalName) code = exitCodeOf(undefined, signalName);
    else if (outputFailure && outputFailure.code !== 'EPIPE') code = failedOutput(outputFailure, streams);
  } catch (err) {
    if (err instanceof CommanderError) {
      code = err.exitCode === 0 ? 0 : 2;
    } else if (outputFailure && !signalName && (err as { kind?: string })?.kind !== 'bulk_incomplete') {
      code = outputFailure.code === 'EPIPE' ? 0 : failedOutput(outputFailure, streams);
    } else {
      code = exitCodeOf(err, signalName);
      if (!(signalName && (err as Error)?.name === 'AbortError')) report(err, streams, wantJson, debug, verb);
    }
  }
  if (!io) {
    process.exitCode = code;
    // Exit explicitly: a stray keep-alive socket or stdin listener must not keep a finished command alive.
    streams.stdout.write('', () => process.stdout.write('', () => process.exit(code)));
  }
  return code;
}
