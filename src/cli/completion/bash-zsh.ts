import { alternatives, words } from './tree';
import type { Node } from './tree';

// Script text that bash and zsh share: the same syntax in both, with each shell's own words passed in.

/** `_payctl_subcommands PATH`: the subcommands of a command path, written out with `print`. */
export const subcommandsFunction = (nodes: Node[], print: string) => `_payctl_subcommands() {
  case "$1" in
${nodes
  .filter((n) => n.subcommands.length)
  .map((n) => `    "${n.path}") ${print} "${words(n.subcommands)}" ;;`)
  .join('\n')}
  esac
}`;

/**
 * Reads the command line into `cur` and `prev` (the words at and before the cursor) and `cmdpath` (the
 * subcommands typed before it; options and their values skipped). The shell's words are `list`, from
 * index `first`, with the cursor at `cursor`; `subcommands` is its word list of _payctl_subcommands.
 */
export const readLine = (valued: string[], list: string, first: number, cursor: string, subcommands: string) =>
  `  cur="\${${list}[${cursor}]}"
  prev="\${${list}[${cursor}-1]}"
  for ((i = ${first}; i < ${cursor}; i++)); do
    word="\${${list}[i]}"
    if ((skip)); then skip=0; continue; fi
    case " ${words(valued)} " in *" $word "*) skip=1; continue ;; esac
    [[ $word == -* ]] && continue
    for sub in ${subcommands}; do
      if [[ $sub == "$word" ]]; then cmdpath="\${cmdpath:+$cmdpath }$word"; break; fi
    done
  done`;

/** Completing an argument rather than an option: its choices (offered by `offer`), or profile names. */
export const argumentCases = (nodes: Node[], profilePaths: string[], offer: (choices: string) => string) =>
  `  if [[ $cur != -* ]]; then
    case "$cmdpath" in
${nodes
  .filter((n) => n.arg.choices.length)
  .map((n) => `      "${n.path}") ${offer(words(n.arg.choices))}; return ;;`)
  .join('\n')}
      ${alternatives(profilePaths)}) _payctl_profiles; return ;;
    esac
  fi`;
