import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { IO } from '../commands/context';

/**
 * `payctl --help` without commander. Loading commander costs more than the rest of that run together:
 * its module imports node:child_process, node:fs, node:util and node:events as ES modules, and Node
 * then evaluates every export of each. So the build asks the program itself (`payctl __root-help`) for
 * the terms and descriptions of its root help, as commander's help computes them, and bakes them into
 * this chunk; here they are only laid out, for the width commander would use, the way commander's
 * `Help.formatHelp` lays out a command without global options (the root has none). A unit test holds
 * the two outputs equal at every width.
 */
export interface RootHelp {
  usage: string;
  description: string;
  /** Each heading (`Options:`, `Commands:`) with its [term, description] items, in order. */
  sections: Array<[string, Array<[string, string]>]>;
  /** The text commander adds after the help (the help topics). */
  after: string;
}

/** The root help's content, from commander's own help of the program that `payctl --help` declares. */
export function rootHelpData(program: CommandUnknownOpts, after: string): RootHelp {
  const helper = program.createHelp();
  const sections: RootHelp['sections'] = [];
  const add = (heading: string, item: [string, string]) => {
    const section = sections.find(([h]) => h === heading);
    if (section) section[1].push(item);
    else sections.push([heading, [item]]);
  };
  for (const a of helper.visibleArguments(program))
    add('Arguments:', [helper.argumentTerm(a), helper.argumentDescription(a)]);
  for (const o of helper.visibleOptions(program))
    add(o.helpGroupHeading ?? 'Options:', [helper.optionTerm(o), helper.optionDescription(o)]);
  for (const c of helper.visibleCommands(program))
    add(c.helpGroup() || 'Commands:', [helper.subcommandTerm(c), helper.subcommandDescription(c)]);
  return { usage: helper.commandUsage(program), description: helper.commandDescription(program), sections, after };
}

const MIN_WIDTH_TO_WRAP = 40;

/** Wraps at whitespace, keeping line breaks (commander's `Help.boxWrap`). */
function boxWrap(text: string, width: number): string {
  if (width < MIN_WIDTH_TO_WRAP) return text;
  const lines: string[] = [];
  for (const line of text.split(/\r\n|\n/)) {
    const chunks = line.match(/[\s]*[^\s]+/g);
    if (chunks === null) {
      lines.push('');
      continue;
    }
    let current = chunks.shift()!;
    for (const chunk of chunks) {
      if (current.length + chunk.length <= width) current += chunk;
      else {
        lines.push(current);
        current = chunk.trimStart();
      }
    }
    lines.push(current);
  }
  return lines.join('\n');
}

/** A term padded to the column, and its description wrapped beside it (commander's `Help.formatItem`). */
function formatItem(term: string, termWidth: number, description: string, helpWidth: number): string {
  if (!description) return `  ${term}`;
  const remaining = helpWidth - termWidth - 4;
  const text =
    remaining < MIN_WIDTH_TO_WRAP || /\n[^\S\r\n]/.test(description)
      ? description
      : boxWrap(description, remaining).replace(/\n/g, `\n${' '.repeat(termWidth + 2)}`);
  return `  ${term.padEnd(termWidth)}  ${text.replace(/\n/g, '\n  ')}`;
}

/** The root help as commander prints it to a stdout `helpWidth` columns wide, the after text included. */
export function renderRootHelp(help: RootHelp, helpWidth = 80): string {
  const termWidth = Math.max(0, ...help.sections.flatMap(([, items]) => items.map(([term]) => term.length)));
  const out = [`Usage: ${help.usage}`, ''];
  if (help.description) out.push(boxWrap(help.description, helpWidth), '');
  for (const [heading, items] of help.sections)
    out.push(heading, ...items.map(([term, text]) => formatItem(term, termWidth, text, helpWidth)), '');
  return `${out.join('\n')}${help.after ? `${help.after}\n` : ''}`;
}

declare const __PAYCTL_ROOT_HELP__: string | undefined;

/**
 * The baked root help laid out for the width commander takes (the terminal's, else 80), or undefined
 * when running from source (commander then answers).
 */
export function bakedRootHelp(io?: IO): string | undefined {
  if (typeof __PAYCTL_ROOT_HELP__ !== 'string') return undefined;
  // An in-process run (tests) has streams of its own: the process's fd 1 is not its stdout.
  const terminal = io ? io.stdoutIsTTY : stdoutIsTerminal();
  const width = terminal ? ((io?.stdout ?? process.stdout) as { columns?: number }).columns : undefined;
  return renderRootHelp(JSON.parse(__PAYCTL_ROOT_HELP__) as RootHelp, width ?? 80);
}

/**
 * commander's test (process.stdout.isTTY) without building process.stdout, nor loading node:tty (which
 * loads node:net) unless fd 1 may be a terminal: a character device other than /dev/null.
 */
function stdoutIsTerminal(): boolean {
  const { fstatSync, statSync } = process.getBuiltinModule('node:fs');
  const rdev = (path: string | number) => {
    try {
      const stats = typeof path === 'number' ? fstatSync(path) : statSync(path);
      return stats.isCharacterDevice() ? stats.rdev : undefined;
    } catch {
      return undefined;
    }
  };
  const out = rdev(1);
  if (out === undefined || out === rdev('/dev/null')) return false;
  return process.getBuiltinModule('node:tty').isatty(1);
}
