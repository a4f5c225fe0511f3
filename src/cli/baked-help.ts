import type { IO } from '../commands/context';
import type { CommandUnknownOpts, Help } from '@commander-js/extra-typings';
import { groupHelpContent } from './group-help';

/**
 * `payctl --help` and `payctl GROUP --help` without commander. Loading commander and declaring a group
 * costs more than the rest of such a run together, so the build asks the program itself (`payctl
 * __baked-help`) for the content of those helps, as commander's help computes it, and bakes it into
 * the entry file; here it is only laid out, for the width commander would use, the way commander's
 * `Help.formatHelp` (or ./group-help's) lays it out. A unit test holds the two outputs equal at many
 * widths.
 */
export interface BakedHelp {
  usage: string;
  description: string;
  /** The width commander pads every term to (its `padWidth`: options it does not show count too). */
  termWidth: number;
  /** Each heading (`Options:`, `Commands:`) with its [term, description] items, in order. */
  sections: Array<[string, Array<[string, string]>]>;
  /** Paragraphs after the sections, each wrapped to the width. */
  paragraphs: string[];
  /** What commander writes after the help (addHelpText 'after'), exactly. */
  after: string;
}

/** What the build bakes: the root's help and each command group's, by name. */
export interface BakedHelps {
  root: BakedHelp;
  groups: Record<string, BakedHelp>;
}

type Item = [string, string];

/** Items grouped by heading: headings in the order of all items, items in the order of the visible ones. */
function grouped<T>(all: readonly T[], visible: readonly T[], heading: (item: T) => string, item: (t: T) => Item) {
  const out = new Map<string, Item[]>(all.map((t) => [heading(t), []]));
  for (const t of visible) out.set(heading(t), [...(out.get(heading(t)) ?? []), item(t)]);
  return [...out.entries()].filter(([, items]) => items.length);
}

/** commander's default help content (its `Help.formatHelp`), without the layout. */
function defaultContent(cmd: CommandUnknownOpts, helper: Help): Pick<BakedHelp, 'sections' | 'paragraphs'> {
  const option = (o: ReturnType<Help['visibleOptions']>[number]): Item => [
    helper.optionTerm(o),
    helper.optionDescription(o),
  ];
  const args = helper.visibleArguments(cmd).map((a): Item => [helper.argumentTerm(a), helper.argumentDescription(a)]);
  const globals = helper.showGlobalOptions ? helper.visibleGlobalOptions(cmd).map(option) : [];
  const sections: BakedHelp['sections'] = [
    ['Arguments:', args],
    ...grouped(cmd.options, helper.visibleOptions(cmd), (o) => o.helpGroupHeading ?? 'Options:', option),
    ['Global Options:', globals],
    ...grouped(
      cmd.commands,
      helper.visibleCommands(cmd),
      (c) => c.helpGroup() || 'Commands:',
      (c): Item => [helper.subcommandTerm(c), helper.subcommandDescription(c)],
    ),
  ];
  return { sections: sections.filter(([, items]) => items.length), paragraphs: [] };
}

/** The content of `cmd`'s help, from commander's own help of it, and what commander writes after it. */
export function bakedHelpOf(cmd: CommandUnknownOpts): BakedHelp {
  const helper = cmd.createHelp();
  const content = cmd.configureHelp().formatHelp ? groupHelpContent(cmd, helper) : defaultContent(cmd, helper);
  let written = '';
  cmd.configureOutput({ ...cmd.configureOutput(), writeOut: (s) => (written += s), getOutHelpWidth: () => 80 });
  cmd.outputHelp();
  return {
    usage: helper.commandUsage(cmd),
    description: helper.commandDescription(cmd),
    termWidth: helper.padWidth(cmd, helper),
    ...content,
    after: written.slice(cmd.helpInformation().length),
  };
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

/** The help as commander prints it to a stdout `helpWidth` columns wide, the after text included. */
export function renderBakedHelp(help: BakedHelp, helpWidth = 80): string {
  const out = [`Usage: ${help.usage}`, ''];
  if (help.description) out.push(boxWrap(help.description, helpWidth), '');
  for (const [heading, items] of help.sections)
    out.push(heading, ...items.map(([term, text]) => formatItem(term, help.termWidth, text, helpWidth)), '');
  for (const paragraph of help.paragraphs) out.push(boxWrap(paragraph, helpWidth), '');
  return `${out.join('\n')}${help.after}`;
}

declare const __PAYCTL_BAKED_HELP__: string | undefined;

/**
 * The baked help of the root (`name` undefined) or of a group, laid out for the width commander takes
 * (the terminal's, else 80); undefined when running from source (commander then answers) or for a
 * name that is not a group.
 */
export function bakedHelp(name?: string, io?: IO): string | undefined {
  if (typeof __PAYCTL_BAKED_HELP__ !== 'string') return undefined;
  const helps = JSON.parse(__PAYCTL_BAKED_HELP__) as BakedHelps;
  const help = name === undefined ? helps.root : Object.hasOwn(helps.groups, name) ? helps.groups[name] : undefined;
  if (!help) return undefined;
  // An in-process run (tests) has streams of its own: the process's fd 1 is not its stdout.
  const terminal = io ? io.stdoutIsTTY : stdoutIsTerminal();
  const width = terminal ? ((io?.stdout ?? process.stdout) as { columns?: number }).columns : undefined;
  return renderBakedHelp(help, width ?? 80);
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
