import type { CommandUnknownOpts, Option } from '@commander-js/extra-typings';

/**
 * Shell completion scripts generated from the command tree itself, so they cannot drift from it.
 * Profile names are read at completion time (`payctl __profiles`), everything else is in the script.
 * Each shell gets a script in its own idiom: bash a `complete -F` function, zsh a native `#compdef`
 * function (an fpath install completes on the first Tab), fish `complete` lines with short options.
 */

type OptKind = 'flag' | 'value' | 'file' | 'profile';

interface Opt {
  long?: string;
  short?: string;
  kind: OptKind;
  choices: string[];
  description: string;
}

export interface Node {
  path: string;
  subcommands: string[];
  options: Opt[];
  /** What the first positional argument completes to. */
  arg: { choices: string[]; profile: boolean };
}

const PROFILE_OPTIONS = ['--profile', '--confirm-live'];
/** Commands whose argument is an existing profile's name (`profile add` names a new one). */
const PROFILE_ARGUMENT = /^profile (use|remove|show|test)$/;

function kindOf(o: Option): OptKind {
  if (!(o.required || o.optional)) return 'flag';
  if (o.long && PROFILE_OPTIONS.includes(o.long)) return 'profile';
  return /<file>|\[file\]/.test(o.flags) ? 'file' : 'value';
}

export function commandTree(program: CommandUnknownOpts): Node[] {
  const nodes: Node[] = [];
  const globals = program.options.filter((o) => !o.hidden);
  const visit = (cmd: CommandUnknownOpts, path: string) => {
    const seen = new Set<string>();
    const options: Opt[] = [];
    for (const o of [...(path ? cmd.options : []), ...globals]) {
      const key = o.long ?? o.short ?? '';
      if (o.hidden || seen.has(key)) continue;
      seen.add(key);
      options.push({
        long: o.long,
        short: o.short,
        kind: kindOf(o),
        choices: o.argChoices ?? [],
        description: o.description,
      });
    }
    options.sort((a, b) => (a.long ?? a.short ?? '').localeCompare(b.long ?? b.short ?? ''));
    const subs = cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
    const first = cmd.registeredArguments[0];
    nodes.push({
      path,
      subcommands: subs.map((c) => c.name()),
      options,
      arg: { choices: first?.argChoices ?? [], profile: PROFILE_ARGUMENT.test(path) },
    });
    for (const sub of subs) visit(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  visit(program, '');
  return nodes;
}

const names = (o: Opt) => [o.long, o.short].filter((f): f is string => Boolean(f));
const allOptions = (nodes: Node[]) => {
  const byName = new Map<string, Opt>();
  // A name that is a plain flag somewhere (orders list --authorized) never swallows the next word.
  for (const n of nodes)
    for (const o of n.options) for (const f of names(o)) if (byName.get(f)?.kind !== 'flag') byName.set(f, o);
  return [...byName.entries()].sort(([a], [b]) => a.localeCompare(b));
};
export const flagsOf = (nodes: Node[], kinds: OptKind[]) =>
  allOptions(nodes)
    .filter(([, o]) => kinds.includes(o.kind))
    .map(([f]) => f);
export const words = (list: string[]) => list.join(' ');
export const alternatives = (list: string[]) => list.map((w) => `"${w}"`).join('|');

/** The option names of one node. */
export const optionNames = (n: Node) => n.options.flatMap(names);
/** Words of one node: subcommands then options, as shells offer them. */
export const candidates = (n: Node) => [...n.subcommands, ...optionNames(n)];

export function choiceCases(nodes: Node[], indent: string, line: (choices: string) => string): string[] {
  const byChoices = new Map<string, string[]>();
  for (const [flag, o] of allOptions(nodes)) {
    if (o.kind !== 'value' || !o.choices.length) continue;
    const key = words(o.choices);
    byChoices.set(key, [...(byChoices.get(key) ?? []), flag]);
  }
  return [...byChoices.entries()].map(([choices, flags]) => `${indent}${flags.join('|')}) ${line(choices)} ;;`);
}

/**
 * What the bash and zsh scripts both branch on: commands, options taking a value, free-text ones,
 * profile arguments.
 */
export function shellFacts(program: CommandUnknownOpts) {
  const nodes = commandTree(program);
  const valued = flagsOf(nodes, ['value', 'file', 'profile']);
  const free = allOptions(nodes)
    .filter(([, o]) => o.kind === 'value' && !o.choices.length)
    .map(([f]) => f);
  const profilePaths = nodes.filter((n) => n.arg.profile).map((n) => n.path);
  return { nodes, valued, free, profilePaths };
}
