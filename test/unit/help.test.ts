import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli/program';
import type { IO } from '../../src/commands/context';

const io = {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  stdinIsTTY: false,
  stdoutIsTTY: false,
  stderrIsTTY: false,
} as IO;
const program = createProgram(() => (async () => undefined) as never, io, {});

function leaves(cmd: Command, path: string[] = []): Array<{ path: string; cmd: Command }> {
  const visible = cmd.commands.filter((c) => !(c as unknown as { _hidden: boolean })._hidden && c.name() !== 'help');
  if (visible.length === 0) return [{ path: path.join(' '), cmd }];
  // A group that also runs on its own (sandbox clock) is a command too.
  const self =
    path.length && (cmd as unknown as { _actionHandler: unknown })._actionHandler
      ? [{ path: path.join(' '), cmd }]
      : [];
  return [...self, ...visible.flatMap((c) => leaves(c, [...path, c.name()]))];
}

/** The help text as `payctl … --help` prints it, "after" sections included. */
function helpOf(cmd: Command): string {
  let out = '';
  cmd.configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (out += s) });
  cmd.outputHelp();
  return out;
}

const commands = leaves(program);

describe('help teaches every command', () => {
  it('finds the whole tree', () => expect(commands.length).toBeGreaterThan(30));

  it.each(commands.map((c) => [c.path, c.cmd] as const))(
    '%s: one-line description, described arguments and options, 2-3 examples',
    (path, cmd) => {
      const description = cmd.description();
      expect(description, path).toMatch(/^\S.{8,}$/);
      expect(description.includes('\n'), path).toBe(false);
      for (const arg of cmd.registeredArguments) expect(arg.description, `${path} <${arg.name()}>`).not.toBe('');
      for (const opt of cmd.options) expect(opt.description, `${path} ${opt.flags}`).toMatch(/\S{3,}/);
      const help = helpOf(cmd);
      const examples =
        help
          .split('Examples:')[1]
          ?.split('\n')
          .filter((l) => l.trim()) ?? [];
      expect(examples.length, `${path} examples`).toBeGreaterThanOrEqual(2);
      expect(examples.length, `${path} examples`).toBeLessThanOrEqual(4);
      for (const ex of examples) expect(ex.includes(`payctl ${path}`), `${path}: ${ex}`).toBe(true);
    },
  );

  it.each(commands.map((c) => [c.path, c.cmd] as const))('%s --help lists the global options', (path, cmd) => {
    const global = helpOf(cmd).split('Global Options:')[1]?.split('Examples:')[0] ?? '';
    for (const flag of [
      '-p, --profile',
      '--base-url',
      '-o, --output',
      '--out <file>',
      '--fields',
      '-y, --yes',
      '--dry-run',
      '--debug',
      '--timeout',
      '--tz',
      '--sandbox',
      '--no-color',
      '--wide',
    ]) {
      expect(global, `${path}: ${flag}`).toContain(flag);
    }
  });

  it.each(
    commands.filter((c) => c.cmd.options.some((o) => /amount/.test(o.long ?? ''))).map((c) => [c.path, c.cmd] as const),
  )('%s says the unit of every amount option', (path, cmd) => {
    for (const amount of cmd.options.filter((o) => /amount/.test(o.long ?? '')))
      expect(amount.description, `${path} ${amount.long}`).toMatch(
        /paise|smallest currency unit|equal the payment amount/,
      );
  });
});
