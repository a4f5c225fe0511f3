import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../../../src/cli/program';
import type { IO } from '../../../src/commands/context';
import { optionsOf } from './argv';

const io = { stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false } as IO;

/** Every command's declared examples, as its --help ends with them. */
function declaredExamples(cmd: CommandUnknownOpts, path: string[] = []): Array<[string, string]> {
  let help = '';
  cmd.configureOutput({ writeOut: (s) => (help += s), writeErr: (s) => (help += s) });
  cmd.outputHelp();
  const own = (help.split('Examples:')[1] ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('payctl '))
    .map((l): [string, string] => [path.join(' '), l]);
  return [...own, ...cmd.commands.flatMap((c) => declaredExamples(c, [...path, c.name()]))];
}

/** An example's argv: words (quotes kept together), up to a comment, pipe or redirection. */
function argvOf(line: string): string[] {
  const words = line.match(/'[^']*'|"[^"]*"|\S+/g) ?? [];
  const end = words.findIndex((w) => ['#', '|', '>', '>>', '<', '&&', ';'].includes(w));
  return (end < 0 ? words : words.slice(0, end)).slice(1).map((w) => w.replace(/^(['"])(.*)\1$/, '$2'));
}

/**
 * The examples each command declares (with its options, beside it) parse with the real program and
 * reach their handler's typed options: an example naming an option the command lost, or a value it
 * refuses, fails here. The examples of README, docs/ and the generated reference run against a sandbox in test/e2e/readme.test.ts and reference-examples.test.ts.
 */
describe('declared examples parse', () => {
  // `completion` is tooling with no handler (completion.test.ts runs its examples).
  const examples = declaredExamples(createProgram(() => (async () => undefined) as never, io, {})).filter(
    ([path]) => path !== 'completion',
  );

  it('every command declares some', () => expect(examples.length).toBeGreaterThan(60));

  it.each(examples)('%s: %s', async (_path, line) => {
    // Interactive forms (no ids: the guided flow) parse too; they reach the handler with no ids.
    await expect(optionsOf(argvOf(line))).resolves.toBeDefined();
  });
});
