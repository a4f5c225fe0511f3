import type { CommandUnknownOpts, Help } from '@commander-js/extra-typings';

type Content = { sections: Array<[string, Array<[string, string]>]>; paragraphs: string[] };

/**
 * What the help of a command group (`payctl orders --help`) shows: its commands first, its own options
 * if it has any, and the global options in one line pointing to where they are described, instead of
 * thirty lines of them before the commands. A command's own help still lists the global options in full.
 */
export function groupHelpContent(cmd: CommandUnknownOpts, helper: Help): Content {
  let root = cmd;
  while (root.parent) root = root.parent;
  const flags = root.options.filter((o) => !o.hidden && o.long !== '--version').map((o) => o.short ?? o.long);
  const globals =
    `Global options (${flags.join(' ')}) go before or after the command: ` +
    'see `payctl --help`, and `payctl help environment` for their environment variables.';
  const own = helper.visibleOptions(cmd).filter((o) => o.long !== '--help');
  const sections: Content['sections'] = [
    ['Commands:', helper.visibleCommands(cmd).map((s) => [helper.subcommandTerm(s), helper.subcommandDescription(s)])],
    ['Arguments:', helper.visibleArguments(cmd).map((a) => [helper.argumentTerm(a), helper.argumentDescription(a)])],
    ['Options:', own.map((o) => [helper.optionTerm(o), helper.optionDescription(o)])],
  ];
  return { sections: sections.filter(([, items]) => items.length), paragraphs: [globals] };
}

/** The help configuration of a command group: ./baked-help lays out the same content without commander. */
export function groupHelp() {
  return {
    showGlobalOptions: false,
    formatHelp(cmd: CommandUnknownOpts, helper: Help) {
      const width = helper.padWidth(cmd, helper);
      const { sections, paragraphs } = groupHelpContent(cmd, helper);
      const description = helper.commandDescription(cmd);
      return [
        `Usage: ${helper.commandUsage(cmd)}`,
        '',
        ...(description ? [helper.boxWrap(description, helper.helpWidth ?? 80), ''] : []),
        ...sections.flatMap(([title, items]) => [
          title,
          ...items.map(([term, text]) => helper.formatItem(term, width, text, helper)),
          '',
        ]),
        ...paragraphs.flatMap((p) => [helper.boxWrap(p, helper.helpWidth ?? 80), '']),
      ].join('\n');
    },
  };
}
