import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../../src/cli/exit-codes';
import { DeclinedError } from '../../../src/contract/errors';
import { Interrupt, OutputClosedError } from '../../../src/commands/aborts';
import { asInterrupt, mustConfirm } from '../../../src/commands/prompt';

const named = (name: string) => Object.assign(new Error('x'), { name });

describe('confirmations and interrupts', () => {
  it('No is declined: exit 8, nothing was sent', () => {
    expect(() => mustConfirm(true)).not.toThrow();
    let err: unknown;
    try {
      mustConfirm(false);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DeclinedError);
    expect((err as Error).message).toBe('declined at a confirmation: nothing was sent');
    expect(exitCodeOf(err)).toBe(8);
  });

  it.each(['ExitPromptError', 'AbortPromptError', 'CancelPromptError'])(
    "the prompt library's %s: interrupted at a question, nothing was sent, exit 130",
    (name) => {
      const err = asInterrupt(named(name)) as Error;
      expect(err.message).toBe('interrupted at a question: nothing was sent');
      expect(exitCodeOf(err)).toBe(130);
    },
  );

  it("a read a question makes, cut off by the run's signal, says the same (SIGTERM: 143)", () => {
    const err = asInterrupt(new Interrupt('SIGTERM')) as Error;
    expect(err.message).toBe('interrupted at a question: nothing was sent');
    expect(exitCodeOf(err)).toBe(143);
  });

  it('anything else is left as it is (a closed stdout is not an interrupt)', () => {
    const closed = new OutputClosedError('EPIPE');
    expect(asInterrupt(closed)).toBe(closed);
    const other = new Error('boom');
    expect(asInterrupt(other)).toBe(other);
  });
});
