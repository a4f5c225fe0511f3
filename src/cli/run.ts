import { CommanderError } from '@commander-js/extra-typings';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Bind } from '../commands/bind';
import type { IO } from '../commands/context';
import { WritesInFlight } from '../commands/writes-in-flight';
import { Interrupt, OutputClosedError } from '../commands/aborts';
import { filteredIO } from './filtered';
import type { ChunkFilter } from './filtered';
import { exitCodeOf } from './exit-codes';
import { createProgram } from './program';
import { failedOutput, report } from './report';
import type { GlobalFlags } from './settings';
import { guardedStdout } from './signals';
import { TOPIC_NAMES, isTopic } from './help/names';
import { UsageError } from '../contract/errors';
import type { TopicName } from './help/names';

const isatty = (fd: number) => process.getBuiltinModule('node:tty').isatty(fd);

/** What one invocation learns as it runs: why it stopped, and how an error is to be reported. */
interface RunState {
  controller: AbortController;
  writes: WritesInFlight;
  signalName?: 'SIGINT' | 'SIGTERM';
  outputFailure?: NodeJS.ErrnoException;
  wantJson: boolean;
  debug: boolean;
  verb?: string;
  /** Once a command runs: what every write to stdout and stderr passes through (the secrets in use redacted). */
  redact?: ChunkFilter;
}

/**
 * Runs one invocation and resolves to its exit code. Given `io` (tests, fuzzing) it stays in-process:
 * no signal handlers, no exit. Without it, it owns the process and exits with that code.
 */
export async function runProgram(argv: string[], io?: IO, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  // In-process, a run knows only the secrets it used itself, as a process does: no other run's redactions.
  if (!io) return invoke(argv, io, env);
  const { withOwnSecrets } = await import('../config/secrets');
  return withOwnSecrets(() => invoke(argv, io, env));
}

async function invoke(argv: string[], io: IO | undefined, env: NodeJS.ProcessEnv): Promise<number> {
  const run: RunState = {
    controller: new AbortController(),
    writes: new WritesInFlight(),
    wantJson: false,
    debug: false,
  };
  const streams = filteredIO(io ?? processStreams(run), () => run.redact);
  if (!io) ownProcess(argv, run, streams);
  else io.interrupt?.addEventListener('abort', () => interrupt(run, streams, 'SIGINT'), { once: true });
  if (argv[0] === 'help' && argv.length === 2 && isTopic(argv[1]))
    return exitWith(await helpTopic(argv[1], streams), streams, io);
  // commander's `help` looks one level deep:
  // `payctl help wallet statement` must match `payctl wallet statement --help`.
  const helpOf = argv[0] === 'help' && argv.length > 1 ? argv[1] : undefined;
  if (helpOf !== undefined) argv = [...argv.slice(1), '--help'];
  const program = createProgram(binder(run, streams, env), streams, env, argv);
  if (helpOf !== undefined && !program.commands.some((c) => c.name() === helpOf)) {
    const topics = TOPIC_NAMES.map(([name]) => name).join(', ');
    streams.stderr.write(`payctl: no command or help topic "${helpOf}" (topics: ${topics}; commands: payctl --help)\n`);
    return exitWith(exitCodeOf(new UsageError('')), streams, io);
  }
  return exitWith(await parseToExitCode(program, argv, run, streams), streams, io);
}

/** `payctl help TOPIC`: the topic, wrapped to the terminal (at most 100 columns) or 80 columns. */
async function helpTopic(name: TopicName, streams: IO): Promise<number> {
  const [{ TOPICS }, { topicText }] = await Promise.all([import('./help/index'), import('./help/topic')]);
  const columns = streams.stdoutIsTTY ? (streams.stdout as { columns?: number }).columns : undefined;
  streams.stdout.write(topicText(TOPICS[name], Math.min(columns || 80, 100)));
  return 0;
}

/** The run's exit code; a run that owns the process exits with it once stdout is flushed. */
function exitWith(code: number, streams: IO, io: IO | undefined): number {
  if (!io) {
    process.exitCode = code;
    // Exit explicitly: a stray keep-alive socket or stdin listener must not keep a finished command alive.
    const exit = () => process.exit(code);
    streams.stdout.write('', () => process.stdout.write('', exit));
    // A terminal takes each write before write() returns (POSIX), so nothing can be left unwritten: if
    // those callbacks never come (seen once on Node 22 after a declined question), exit all the same.
    const pending = (streams.stdout as { writableLength?: number }).writableLength ?? 0;
    if (process.stdout.isTTY && pending === 0) setTimeout(exit, 1_000).unref();
  }
  return code;
}

/** The process's own streams, each looked at only when used. */
function processStreams(run: RunState): IO {
  return {
    // A failed stdout stops the run (no new items; those in flight finish and are recorded): exit 7 for
    // a bulk run, quietly 0 for a reader that only wanted the first lines of a listing.
    stdout: guardedStdout(process.stdout, (err) => {
      run.outputFailure = err;
      if (!run.controller.signal.aborted) run.controller.abort(new OutputClosedError(err.code ?? 'EIO'));
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
}

/** A run that owns the process: --no-color for libraries too, and SIGINT/SIGTERM stop the run (twice: exit). */
function ownProcess(argv: string[], run: RunState, streams: IO): void {
  // Libraries colour on their own (the prompts' theme goes through util.styleText, which reads
  // NO_COLOR): --no-color must reach them too.
  if (argv.includes('--no-color')) process.env.NO_COLOR = '1';
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      if (run.signalName) process.exit(exitCodeOf(undefined, sig));
      interrupt(run, streams, sig);
    });
  }
}

/** A first SIGINT or SIGTERM (or an in-process run's `io.interrupt`): the run stops, writes in flight finish. */
function interrupt(run: RunState, streams: IO, sig: 'SIGINT' | 'SIGTERM'): void {
  run.signalName = sig;
  if (!run.controller.signal.aborted) run.controller.abort(new Interrupt(sig));
  run.writes.onInterrupt(streams.stderr);
}

/**
 * Each command's action: settings from its flags and the environment, the runtime, the handler with
 * its typed options, then the result rendered. The action's parameters are typed by the command's
 * declaration (see Bind); here they are commander's.
 */
function binder(run: RunState, streams: IO, env: NodeJS.ProcessEnv): Bind {
  return (load, options) =>
    (async (...params: unknown[]) => {
      const command = params[params.length - 1] as CommandUnknownOpts;
      const flags = command.optsWithGlobals() as GlobalFlags;
      run.debug = Boolean(flags.debug);
      run.verb = command.name();
      run.wantJson = (flags.output ?? env.PAYCTL_OUTPUT) === 'json';
      const [{ settingsFrom }, { createRuntime }, { renderResult }, { redactChunk }, handler] = await Promise.all([
        import('./settings'),
        import('../commands/runtime'),
        import('./render-result'),
        import('../config/secrets'),
        load(),
      ]);
      run.redact = redactChunk;
      const settings = settingsFrom(flags, env, streams);
      run.wantJson = settings.formatChosen && settings.format === 'json';
      run.writes.invocation = settings;
      const runtime = createRuntime(settings, streams, run.controller.signal, run.writes);
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
}

/** Parses and runs the command; its exit code, the error reported on stderr if it failed. */
async function parseToExitCode(
  program: CommandUnknownOpts,
  argv: string[],
  run: RunState,
  streams: IO,
): Promise<number> {
  try {
    await program.parseAsync(argv, { from: 'user' });
    if (run.signalName) return exitCodeOf(undefined, run.signalName);
    if (run.outputFailure && run.outputFailure.code !== 'EPIPE') return failedOutput(run.outputFailure, streams);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (run.outputFailure && !run.signalName && (err as { kind?: string })?.kind !== 'bulk_incomplete')
      return run.outputFailure.code === 'EPIPE' ? 0 : failedOutput(run.outputFailure, streams);
    const code = exitCodeOf(err, run.signalName);
    if (!(run.signalName && (err as Error)?.name === 'AbortError'))
      report(err, streams, run.wantJson, run.debug, run.verb);
    return code;
  }
}
