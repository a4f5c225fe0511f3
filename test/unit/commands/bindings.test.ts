import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../../../src/cli/program';
import type { Bind, Handler } from '../../../src/commands/bind';
import type { IO } from '../../../src/commands/context';

const io = { stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false } as IO;
const TOOLING = new Set(['completion', '__profiles', '__baked-help']);

function actionable(cmd: Command, path: string[] = []): string[] {
  const own = path.length && (cmd as unknown as { _actionHandler: unknown })._actionHandler ? [path.join(' ')] : [];
  return [
    ...own,
    ...cmd.commands.filter((c) => !TOOLING.has(c.name())).flatMap((c) => actionable(c, [...path, c.name()])),
  ];
}

describe('every declared command resolves to a handler', () => {
  const bindings: Array<() => Promise<Handler<never>>> = [];
  const bind: Bind = (load) => {
    bindings.push(load as () => Promise<Handler<never>>);
    return (async () => undefined) as never;
  };
  const program = createProgram(bind, io, {});
  const commands = actionable(program);

  it('one binding per command that runs', () => {
    expect(commands.length).toBeGreaterThan(30);
    expect(bindings).toHaveLength(commands.length);
  });

  it.each(commands.map((c, i) => [c, i] as const))('%s', async (_path, i) => {
    expect(typeof (await bindings[i]!())).toBe('function');
  });
});
