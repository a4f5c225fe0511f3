import { describe, expect, it } from 'vitest';
import { commandTree } from '../../../src/cli/completion/tree';
import { GROUPS } from '../../../src/cli/groups';
import { createProgram } from '../../../src/cli/program';
import type { IO } from '../../../src/commands/context';

const io = { stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false } as IO;
const bind = () => (async () => undefined) as never;

/** The registry is the one list of groups: the program, its help and the completions come from it. */
describe('command groups come from src/cli/groups.ts', () => {
  const names = GROUPS.map((g) => g.name);
  const tooling = ['completion', '__profiles', '__baked-help'];

  it('the whole program declares every group, in the registry order, and nothing else', () => {
    const program = createProgram(bind, io, {});
    expect(program.commands.map((c) => c.name()).filter((n) => !tooling.includes(n))).toEqual(names);
  });

  it('`payctl --help` lists each group by its summary without declaring its commands', () => {
    const program = createProgram(bind, io, {}, ['--help']);
    for (const group of GROUPS.filter((g) => g.summary !== undefined)) {
      const cmd = program.commands.find((c) => c.name() === group.name)!;
      expect([cmd.description(), cmd.commands.length]).toEqual([group.summary, 0]);
    }
  });

  it('a run declares only its own group', () => {
    for (const name of names) {
      const program = createProgram(bind, io, {}, [name, '--help']);
      expect(program.commands.map((c) => c.name()).filter((n) => !tooling.includes(n))).toEqual([name]);
    }
  });

  it('completions offer every group', () => {
    const root = commandTree(createProgram(bind, io, {})).find((n) => n.path === '')!;
    expect(root.subcommands).toEqual(expect.arrayContaining(names));
  });
});
