import { describe, expect, it } from 'vitest';
import { createProgram } from '../../../src/cli/program';
import { renderRootHelp, rootHelpData } from '../../../src/cli/root-help';
import { topicsHelp } from '../../../src/cli/help/names';
import type { IO } from '../../../src/commands/context';

const io = { stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false } as IO;
const bind = () => (async () => undefined) as never;

/** `payctl --help` as commander prints it to a stdout `width` columns wide (undefined: not a terminal). */
function commanderHelp(width: number | undefined): string {
  const program = createProgram(bind, io, {}, ['--help']);
  let out = '';
  program.configureOutput({
    ...program.configureOutput(),
    writeOut: (s) => (out += s),
    // commander's own default answers undefined for a stdout that is not a terminal.
    getOutHelpWidth: () => width as number,
  });
  expect(() => program.parse(['--help'], { from: 'user' })).toThrow(expect.objectContaining({ exitCode: 0 }));
  return out;
}

/** The baked root help is commander's own, laid out without it: the same text at every terminal width. */
describe('payctl --help without commander', () => {
  const baked = JSON.parse(JSON.stringify(rootHelpData(createProgram(bind, io, {}, ['__root-help']), topicsHelp())));

  it('lists every group and help topic', () => {
    const text = renderRootHelp(baked);
    for (const word of ['orders', 'payments', 'settlements', 'webhooks', 'mcp', 'completion', 'money-safety'])
      expect(text).toMatch(new RegExp(`^  ${word} `, 'm'));
  });

  it.each([undefined, 20, 39, 40, 60, 79, 80, 100, 120, 132, 160, 200, 300])('is commander’s text at width %s', (w) => {
    expect(renderRootHelp(baked, w ?? 80)).toBe(commanderHelp(w));
  });

  it('wraps long descriptions on a wide terminal', () => {
    const lines = renderRootHelp(baked, 120).split('\n');
    expect(lines.filter((line) => line.length > 120)).toEqual([]);
    expect(lines).toContain(`${' '.repeat(41)}.xlsx`);
  });
});
