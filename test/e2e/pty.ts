import { spawn } from 'node:child_process';
import { BIN, assertNoSecret } from './harness';

const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-B]|\x1b[=>]|\r/g;

export const KEY = { enter: '\r', down: '\x1b[B', ctrlC: '\x03', backspace: '\x7f' } as const;

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * payctl on a real pseudo-terminal (util-linux `script`), driven by keystrokes the way a person
 * would: wait for a question, type, wait for the next.
 */
export function onTerminal(args: string[], env: Record<string, string>) {
  const command = `stty cols 160 rows 50; exec ${quote(process.execPath)} ${quote(BIN)} ${args.map(quote).join(' ')}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { ...process.env, ...env, TERM: 'xterm' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let seen = 0;
  child.stdout.on('data', (d) => (screen += String(d)));
  child.stderr.on('data', (d) => (screen += String(d)));
  const exited = new Promise<number | null>((resolve, reject) =>
    child.on('close', (code) => {
      try {
        assertNoSecret(screen, `the terminal of payctl ${args.join(' ')}`);
        resolve(code);
      } catch (err) {
        reject(err);
      }
    }),
  );
  const plain = () => screen.replace(ANSI, '');
  return {
    /** Everything shown so far, escape sequences removed. */
    text: plain,
    /** Everything shown so far, as the terminal received it. */
    raw: () => screen,
    /** Waits until `pattern` shows up after what earlier waits consumed. */
    async waitFor(pattern: RegExp | string, timeoutMs = 15_000): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const rest = plain().slice(seen);
        const m =
          typeof pattern === 'string'
            ? rest.includes(pattern)
              ? { index: rest.indexOf(pattern), 0: pattern }
              : null
            : pattern.exec(rest);
        if (m) {
          seen += m.index + m[0].length;
          return rest;
        }
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`did not see ${String(pattern)}; screen:\n${plain().slice(-1500)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async type(...keys: string[]) {
      for (const k of keys) {
        child.stdin.write(k);
        await new Promise((r) => setTimeout(r, 40));
      }
    },
    exited,
    kill: () => child.kill('SIGKILL'),
  };
}

export type Terminal = ReturnType<typeof onTerminal>;

/**
 * Answers the guided refund (`payments refund` with no id) for a full refund of `id`, with no receipt
 * and no note, up to its last question: the screen from the note on, ending in that `… now?`.
 */
export async function toLastRefundQuestion(t: Terminal, id: string): Promise<string> {
  await t.waitFor('Payment id to refund');
  await t.type(id, KEY.enter);
  await t.waitFor('Refund how much?');
  await t.type(KEY.enter);
  await t.waitFor('Receipt');
  await t.type(KEY.enter);
  await t.waitFor('Note');
  await t.type(KEY.enter);
  return t.waitFor('now?');
}
