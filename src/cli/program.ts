import { Argument, Command, Option } from '@commander-js/extra-typings';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Bind } from '../commands/bind';
import { examples } from '../commands/declare';
import type { IO } from '../commands/context';
import { GROUPS } from './groups';
import { groupHelp } from './group-help';
import { topicsHelp } from './help/names';
import { VERSION } from '../version';

/** The program itself: name, version and the options every command takes. */
function declareGlobal(program: Command) {
  program
    .name('payctl')
    .description(
      'Admin and operations tool for the payments service: ' +
        'orders, payments, refunds, plans, subscriptions and the customer wallet.',
    )
    .version(VERSION, '-V, --version', 'print the version')
    .option('-p, --profile <name>', 'key profile to use (env PAYCTL_PROFILE)')
    .option('--base-url <url>', "override the profile's base URL, https only except loopback (env PAYCTL_BASE_URL)")
    .addOption(
      new Option('-o, --output <format>', 'default table on a terminal, json otherwise (env PAYCTL_OUTPUT)').choices([
        'table',
        'json',
        'ndjson',
        'csv',
      ]),
    )
    .option(
      '--out <file>',
      'write the result to FILE atomically (0600) instead of stdout; lists walk every page unless --limit, ' +
        'in the format of the extension: .csv .json .ndjson/.jsonl .xlsx',
    )
    .option('--fields <list>', 'comma-separated fields/columns, dot paths allowed (notes.reason)')
    .option('-y, --yes', 'skip confirmations (required for money movement without a terminal)')
    .option('--dry-run', 'validate and print the request(s) that would be sent; send nothing')
    .option('--debug', 'HTTP trace on stderr (credentials redacted)')
    .option('--timeout <seconds>', 'deadline of each attempt, connect to last byte, in seconds (default 30)')
    .option('--tz <zone>', 'IANA time zone for reading and showing times (default: local; env PAYCTL_TZ)')
    .option('--sandbox', 'run against the embedded local sandbox (no profile needed)')
    .option('--no-color', 'no colours (also NO_COLOR; FORCE_COLOR forces them)')
    .option('--wide', 'tables: show every column instead of fitting the terminal width')
    // Subcommands copy this setting when declared: every `--help` then lists the global options too.
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError(true);
}

function declareTooling(program: Command, bind: Bind, streams: IO, env: NodeJS.ProcessEnv) {
  program
    .command('completion')
    .description('print a shell completion script generated from the command tree')
    .addArgument(new Argument('<shell>', 'shell').choices(['bash', 'zsh', 'fish']))
    .addHelpText(
      'after',
      examples(
        'payctl completion bash > ~/.local/share/bash-completion/completions/payctl',
        'payctl completion zsh > "${fpath[1]}/_payctl"',
        'payctl completion fish > ~/.config/fish/completions/payctl.fish',
      ),
    )
    .action(async (shell: string) => {
      const { completionScript } = await import('./completion');
      streams.stdout.write(completionScript(shell, program) ?? '');
    });
  // Read by the completion scripts at completion time; reads the config file directly to stay fast.
  program.command('__profiles', { hidden: true }).action(async () => {
    const [{ readFile }, { join }, { payctlPaths }] = await Promise.all([
      import('node:fs/promises'),
      import('node:path'),
      import('../config/paths'),
    ]);
    const text = await readFile(join(payctlPaths(env).config, 'config.json'), 'utf8').catch(() => '{}');
    let names: string[] = [];
    try {
      names = Object.keys((JSON.parse(text) as { profiles?: object } | null)?.profiles ?? {});
    } catch {
      // A damaged config: completion offers nothing; every other command names the file and what to do.
    }
    streams.stdout.write(names.length ? `${names.join('\n')}\n` : '');
  });
  // Read by the build (scripts/build.mjs), which bakes the root's and each group's help into dist: see
  // ./baked-help. A group's help is read from a program that declares it, as `payctl GROUP --help` does.
  program.command(BAKED_HELP, { hidden: true }).action(async () => {
    const { bakedHelpOf } = await import('./baked-help');
    const groups = Object.fromEntries(
      GROUPS.map(({ name }) => {
        const declared = createProgram(bind, streams, env, [name, '--help']);
        return [name, bakedHelpOf(declared.commands.find((c) => c.name() === name)!)];
      }),
    );
    streams.stdout.write(JSON.stringify({ root: bakedHelpOf(program), groups }));
  });
}

/** The hidden command that prints the content of `payctl --help` and each `payctl GROUP --help`, for the build. */
const BAKED_HELP = '__baked-help';

/** The first word that is not a global option (or its value): the command group being run. */
function commandWord(program: Command, argv: string[]): string | undefined {
  const takesValue = new Set(program.options.filter((o) => o.required || o.optional).flatMap((o) => [o.short, o.long]));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return argv[i + 1];
    if (!arg.startsWith('-')) return arg;
    if (takesValue.has(arg)) i++;
  }
  return undefined;
}

/**
 * The command tree; `bind` binds each command to its lazily imported handler. Given the argv, only the
 * group being run is declared (building all of them is a measurable part of a short command's start);
 * anything else (help, completion, a typo to suggest for) gets the whole tree.
 */
export function createProgram(bind: Bind, streams: IO, env: NodeJS.ProcessEnv, argv?: string[]): CommandUnknownOpts {
  const program = new Command();
  program.exitOverride();
  program.configureOutput({
    writeOut: (s) => streams.stdout.write(s),
    writeErr: (s) => streams.stderr.write(s),
    // One line, like every other payctl error: commander puts suggestions on a line of their own.
    outputError: (s, write) => write(`payctl: ${s.trim().replace(/\s*\n\s*/g, ' ')} (see --help)\n`),
    // The width of the streams the run was given (commander would ask the process's, not an in-process run's).
    getOutHelpWidth: () => (streams.stdoutIsTTY && (streams.stdout as { columns?: number }).columns) || 80,
    getErrHelpWidth: () => (streams.stderrIsTTY && (streams.stderr as { columns?: number }).columns) || 80,
  });
  declareGlobal(program);
  const word = argv && commandWord(program, argv);
  const noCommand = argv !== undefined && (word === undefined || word === BAKED_HELP);
  // Each command group, declared only when it is the one being run (or for completion and a typo to
  // suggest for); for `payctl --help` (and the build's `__baked-help`, which reads that help) a group is
  // only its summary line. `__profiles` runs on every Tab after -p: it needs no command group at all.
  const known = GROUPS.some((group) => group.name === word);
  for (const group of word === '__profiles' ? [] : GROUPS) {
    if (noCommand && group.summary !== undefined) program.command(group.name).description(group.summary);
    else if (noCommand || word === undefined || word === group.name || !known) group.declare(program, bind);
  }
  declareTooling(program, bind, streams, env);
  // exitOverride and output settings must reach every subcommand, declared after the call above.
  const grouped = groupHelp();
  const apply = (cmd: CommandUnknownOpts) => {
    cmd.exitOverride();
    cmd.configureOutput(program.configureOutput());
    // A group that only holds commands (not one that also runs, like `mcp`); set after its commands were
    // declared, which copied the settings they had then.
    const runs = Boolean((cmd as unknown as { _actionHandler?: unknown })._actionHandler);
    if (cmd.commands.length && !runs) cmd.configureHelp(grouped);
    cmd.commands.forEach(apply);
  };
  program.commands.forEach(apply);
  program.addHelpText('after', topicsHelp());
  return program;
}
