import { InterruptedError } from '../contract/errors';
import type { Context } from './context';

type Prompts = typeof import('@inquirer/prompts');

/**
 * Questions to a person at the terminal: asked on stderr (stdout stays for data), loaded only when
 * asked, and Ctrl-C (or a signal) at any question ends with exit 130 having sent nothing.
 */
export async function promptSession(ctx: Context) {
  const prompts: Prompts = await import('@inquirer/prompts');
  const context = { input: ctx.io.stdin, output: ctx.io.stderr, signal: ctx.signal, clearPromptOnDone: false };
  const ask = async <T>(question: (p: Prompts) => Promise<T>): Promise<T> => {
    try {
      return await question(prompts);
    } catch (err) {
      const name = (err as Error)?.name;
      if (name === 'ExitPromptError' || name === 'AbortPromptError' || name === 'CancelPromptError')
        throw new InterruptedError('SIGINT');
      throw err;
    }
  };
  const say = (line = '') => void ctx.io.stderr.write(`${line}\n`);
  return { context, ask, say };
}

export type PromptSession = Awaited<ReturnType<typeof promptSession>>;
