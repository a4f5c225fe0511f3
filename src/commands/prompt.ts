import { DeclinedError, InterruptedError } from '../contract/errors';
import { Interrupt } from './aborts';
import type { Context } from './context';
import { textWidth } from '../output/layout';

type Prompts = typeof import('@inquirer/prompts');

/** What Ctrl-C at a question says: the questions come before anything is sent. */
export const AT_A_QUESTION = 'interrupted at a question: nothing was sent';

/** The prompt library's own cancel (Ctrl-C at a question, or the run's signal) as payctl's error. */
export function asInterrupt(err: unknown): unknown {
  // A read a question makes (the guided flow checks an id as it is typed) cut off by the signal.
  if (err instanceof Interrupt) return new InterruptedError(err.signal, AT_A_QUESTION);
  const name = (err as Error)?.name;
  if (name === 'ExitPromptError' || name === 'AbortPromptError' || name === 'CancelPromptError')
    return new InterruptedError('SIGINT', AT_A_QUESTION);
  return err;
}

/** An answer of No ends the run with exit 8, having sent nothing. */
export function mustConfirm(ok: boolean): void {
  if (!ok) throw new DeclinedError();
}

const visibleWidth = (s: string) => textWidth(s.replace(/\x1b\[[0-9;]*m/g, ''));

/**
 * A question broken between words to fit the terminal, which the prompt library would break mid-word:
 * `? ` before it and ` (y/N) ` after it take 8 columns (80 when the width is not known, as the library).
 */
export function fitQuestion(message: string, columns: number | undefined): string {
  const width = Math.max(20, (columns || 80) - 8);
  const lines: string[] = [];
  let line = '';
  for (const word of message.split(' ')) {
    if (line && visibleWidth(line) + 1 + visibleWidth(word) > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.join('\n');
}

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
      throw asInterrupt(err);
    }
  };
  const say = (line = '') => void ctx.io.stderr.write(`${line}\n`);
  return { context, ask, say };
}

export type PromptSession = Awaited<ReturnType<typeof promptSession>>;
