import type { CommandUnknownOpts, Help } from '@commander-js/extra-typings';

/** One argument or option of a command, as its help shows it. */
export interface Item {
  term: string;
  description: string;
}

/** A command as the reference shows it, read from the command tree that makes its help. */
export interface CommandDoc {
  /** `payctl payments refund` */
  path: string;
  /** `payctl-payments-refund`: the man page's and the Markdown file's name. */
  page: string;
  usage: string;
  description: string;
  arguments: Item[];
  options: Item[];
  commands: Array<Item & { page: string }>;
  examples: string[];
  /** Help text after the options that is not an example. */
  notes: string[];
  parent?: string;
}

const visible = (cmd: CommandUnknownOpts) =>
  cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden && c.name() !== 'help');

/** What `--help` prints after the options (commander keeps it in listeners, not in a field). */
function afterText(cmd: CommandUnknownOpts): string {
  let out = '';
  cmd.configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (out += s) });
  const body = cmd.helpInformation();
  cmd.outputHelp();
  return out.startsWith(body) ? out.slice(body.length) : '';
}

function split(after: string): { examples: string[]; notes: string[] } {
  const [before, rest] = after.split(/^Examples:\n/m);
  const examples = (rest ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const notes = (before ?? '')
    .split(/\n\s*\n/)
    .map((p) => p.trim().replace(/\s*\n\s*/g, ' '))
    .filter(Boolean);
  return { examples, notes };
}

/** Every visible command of the program, depth first, the program itself first. */
export function commandDocs(program: CommandUnknownOpts): CommandDoc[] {
  const helper = program.createHelp() as Help;
  const docs: CommandDoc[] = [];
  const visit = (cmd: CommandUnknownOpts, words: string[], parent?: string) => {
    const path = ['payctl', ...words].join(' ');
    const page = ['payctl', ...words].join('-');
    const { examples, notes } = words.length ? split(afterText(cmd)) : { examples: [], notes: [] };
    const subs = visible(cmd);
    docs.push({
      path,
      page,
      usage: helper.commandUsage(cmd),
      description: cmd.description(),
      arguments: helper.visibleArguments(cmd).map((a) => ({
        term: helper.argumentTerm(a),
        description: helper.argumentDescription(a),
      })),
      options: helper
        .visibleOptions(cmd)
        .filter((o) => o.long !== '--help')
        .map((o) => ({ term: helper.optionTerm(o), description: helper.optionDescription(o) })),
      commands: subs.map((s) => ({
        term: s.name(),
        description: s.description(),
        page: `${page}-${s.name()}`,
      })),
      examples,
      notes,
      parent,
    });
    for (const sub of subs) visit(sub, [...words, sub.name()], page);
  };
  visit(program, []);
  return docs;
}
