import type { CommandUnknownOpts, Help } from '@commander-js/extra-typings';

/**
 * The help of a command group (`payctl orders --help`): its commands first, its own options if it has
 * any, and the global options in one line pointing to where they are described, instead of thirty
 * lines of them before the commands. A command's own help still lists the global options in full.
 */
export function groupHelp(program: CommandUnknownOpts) {
  const flags = program.options.filter((o) => !o.hidden && o.long !== '--version').map((o) => o.short ?? o.long);
  const globals =
    `Global options (${flags.join(' ')}) go before or after the command: ` +
    'see `payctl --help`, and `payctl help environment` for their environment variables.';
  return {
    showGlobalOptions: false,
    formatHelp(cmd: CommandUnknownOpts, helper: Help) {
      const width = helper.padWidth(cmd, helper);
      const item = (term: string, description: string) => helper.formatItem(term, width, description, helper);
      const section = (title: string, items: string[]) => (items.length ? [title, ...items, ''] : []);
      const description = helper.commandDescription(cmd);
      const own = helper.visibleOptions(cmd).filter((o) => o.long !== '--help');
      return [
        `Usage: ${helper.commandUsage(cmd)}`,
        '',
        ...(description ? [helper.boxWrap(description, helper.helpWidth ?? 80), ''] : []),
        ...section(
          'Commands:',
          helper.visibleCommands(cmd).map((sub) => item(helper.subcommandTerm(sub), helper.subcommandDescription(sub))),
        ),
        ...section(
          'Arguments:',
          helper.visibleArguments(cmd).map((a) => item(helper.argumentTerm(a), helper.argumentDescription(a))),
        ),
        ...section(
          'Options:',
          own.map((o) => item(helper.optionTerm(o), helper.optionDescription(o))),
        ),
        helper.boxWrap(globals, helper.helpWidth ?? 80),
        '',
      ].join('\n');
    },
  };
}
