import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { needs } from '../tools';
import { assertNoSecret } from './harness';

export const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * A real terminal of a given size: a detached tmux session on its own server socket, driven with
 * send-keys and read with capture-pane, the way a person would see it.
 */
export function tmuxTerminal(opts: { width: number; height?: number; command: string; env?: Record<string, string> }) {
  needs('tmux');
  const socket = `payctl-test-${randomBytes(6).toString('hex')}`;
  const tmux = (...args: string[]) =>
    execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  const envArgs = Object.entries(opts.env ?? {}).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  tmux('new-session', '-d', '-x', String(opts.width), '-y', String(opts.height ?? 50), ...envArgs, opts.command);
  tmux('set-option', '-t', '0', 'remain-on-exit', 'on');
  // -J joins the lines the terminal wrapped; `rows` keeps them as the screen shows them.
  const capture = (escapes = false, rows = false) => {
    const text = tmux(
      'capture-pane',
      '-p',
      ...(rows ? [] : ['-J']),
      '-t',
      '0',
      ...(escapes ? ['-e'] : []),
      '-S',
      '-',
      '-E',
      '-',
    );
    assertNoSecret(text, 'a tmux terminal');
    return text;
  };
  return {
    /** The screen and scrollback as shown; `escapes` keeps the colour sequences, `rows` the terminal's own line breaks. */
    capture,
    keys: (...keys: string[]) => tmux('send-keys', '-t', '0', ...keys),
    async waitFor(pattern: RegExp, timeoutMs = 20_000): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const screen = capture();
        if (pattern.test(screen)) return screen;
        if (Date.now() > deadline) throw new Error(`did not see ${String(pattern)} on the terminal:\n${screen}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    },
  };
}
