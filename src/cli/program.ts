import { Argument, Command, Option } from '@commander-js/extra-typings';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Bind } from '../commands/bind';
import { examples } from '../commands/declare';
import type { IO } from '../commands/context';
import { GLOBAL_OPTIONS, commandWords } from './global-options';
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
    // Subcommands copy this setting when declared: every `--help` then lists the global options too.
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError(true);
  for (const { flags, description, choices } of GLOBAL_OPTIONS) {
    const option = new Option(flags, description);
    program.addOption(choices ? option.choices(choices) : option);
  }
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
  const word = argv && commandWords(argv)[0];
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
