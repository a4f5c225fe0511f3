import { describe, expect, it } from 'vitest';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { createProgram } from '../../../src/cli/program';
import { bakedHelpOf, renderBakedHelp } from '../../../src/cli/baked-help';
import type { BakedHelps } from '../../../src/cli/baked-help';
import { GROUPS } from '../../../src/cli/groups';
import type { IO } from '../../../src/commands/context';

const bind = () => (async () => undefined) as never;

/** What the build bakes: the hidden command's output, as the build reads it. */
async function baked(): Promise<BakedHelps> {
  let out = '';
  const io = {
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdout: { write: (s: string) => (out += s) },
  };
  await createProgram(bind, io as unknown as IO, {}, ['__baked-help']).parseAsync(['__baked-help'], { from: 'user' });
  return JSON.parse(out) as BakedHelps;
}

/** `args` (ending in --help) as commander prints it to a stdout `width` columns wide (undefined: not a terminal). */
function commanderHelp(args: string[], width: number | undefined): string {
  const io = { stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false } as IO;
  const program = createProgram(bind, io, {}, args);
  let out = '';
  const capture = (cmd: CommandUnknownOpts) => {
    cmd.configureOutput({
      ...cmd.configureOutput(),
      writeOut: (s) => (out += s),
      // commander's own default answers undefined for a stdout that is not a terminal.
      getOutHelpWidth: () => width as number,
    });
    cmd.commands.forEach(capture);
  };
  capture(program);
  expect(() => program.parse(args, { from: 'user' })).toThrow(expect.objectContaining({ exitCode: 0 }));
  return out;
}

const WIDTHS = [undefined, 20, 39, 40, 60, 79, 80, 100, 120, 132, 160, 200, 300];

/** The baked helps are commander's own, laid out without it: the same text at every terminal width. */
describe('payctl --help and payctl GROUP --help without commander', async () => {
  const helps = await baked();

  it('the root lists every group and help topic', () => {
    const text = renderBakedHelp(helps.root);
    for (const word of ['orders', 'payments', 'settlements', 'webhooks', 'mcp', 'completion', 'money-safety'])
      expect(text).toMatch(new RegExp(`^  ${word} `, 'm'));
  });

  it('every group is baked', () => {
    expect(Object.keys(helps.groups)).toEqual(GROUPS.map((g) => g.name));
  });

  it.each(WIDTHS)('the root is commander’s text at width %s', (w) => {
    expect(renderBakedHelp(helps.root, w ?? 80)).toBe(commanderHelp(['--help'], w));
  });

  it.each(GROUPS.flatMap((g) => WIDTHS.map((w) => [g.name, w] as const)))(
    '%s is commander’s text at width %s',
    (name, w) => {
      const text = renderBakedHelp(helps.groups[name]!, w ?? 80);
      expect(text).toBe(commanderHelp([name, '--help'], w));
      expect(text).toMatch(new RegExp(`^Usage: payctl ${name} `));
    },
  );

  it('wraps long descriptions on a wide terminal', () => {
    const lines = renderBakedHelp(helps.root, 120).split('\n');
    expect(lines.filter((line) => line.length > 120)).toEqual([]);
    expect(lines).toContain(`${' '.repeat(41)}.xlsx`);
  });

  it('reads the content from commander, not from a copy: a changed description shows', () => {
    const program = createProgram(bind, {} as IO, {}, ['orders', '--help']);
    const orders = program.commands.find((c) => c.name() === 'orders')!;
    orders.description('a description no build has baked');
    expect(renderBakedHelp(bakedHelpOf(orders))).toContain('a description no build has baked');
  });
});
