import { beforeEach, describe, expect, it, vi } from 'vitest';
import { confirmRun } from '../../../../src/commands/payments/bulk-confirm';
import { InterruptedError, UsageError } from '../../../../src/contract/errors';
import { fakeContext } from '../fake-context';
import { PAY, liveProfile } from './fixtures';

/** What the person does at the question: types an answer, or the prompt library fails with an error. */
const answer = vi.hoisted(() => ({ current: (): Promise<string> => Promise.resolve('') }));
vi.mock('@inquirer/prompts', () => ({ input: () => answer.current() }));

const named = (name: string, message = name) => Object.assign(new Error(message), { name });

function terminal() {
  const f = fakeContext();
  f.ctx.credentials = liveProfile;
  f.ctx.io.stdinIsTTY = true;
  f.ctx.io.stderrIsTTY = true;
  return f;
}
const source = () => `Capture 1 payment(s) (${PAY}), total ₹1.00`;

describe('a bulk run on a live profile asks for the profile name on a terminal', () => {
  beforeEach(() => {
    answer.current = () => Promise.resolve('');
  });

  it('the name typed: the run goes ahead', async () => {
    answer.current = () => Promise.resolve(' prod ');
    await expect(confirmRun('capture', source(), undefined, terminal().ctx)).resolves.toBeUndefined();
  });

  it('anything else typed: declined (exit 8), nothing sent', async () => {
    answer.current = () => Promise.resolve('yes');
    await expect(confirmRun('refund', source(), undefined, terminal().ctx)).rejects.toMatchObject({
      kind: 'declined',
      message: 'the profile name was not typed: nothing was sent',
    });
  });

  it.each(['ExitPromptError', 'AbortPromptError'])(
    'the prompt ends with %s (Ctrl-C, a signal): interrupted, exit 130',
    async (name) => {
      answer.current = () => Promise.reject(named(name));
      const err = await confirmRun('capture', source(), undefined, terminal().ctx).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InterruptedError);
      expect((err as InterruptedError).signal).toBe('SIGINT');
    },
  );

  it.each([
    ['a terminal that fails', named('Error', 'read EIO')],
    ['a bug', new TypeError('x is not a function')],
  ])('%s: reported as itself, not as interrupted', async (_name, failure) => {
    answer.current = () => Promise.reject(failure);
    const err = await confirmRun('capture', source(), undefined, terminal().ctx).catch((e: unknown) => e);
    expect(err).toBe(failure);
    expect(err).not.toBeInstanceOf(InterruptedError);
  });

  it('without a terminal, --yes --confirm-live NAME confirms; no question asked', async () => {
    answer.current = () => Promise.reject(new Error('asked'));
    const f = fakeContext();
    f.ctx.credentials = liveProfile;
    await expect(confirmRun('capture', source(), 'prod', f.ctx)).resolves.toBeUndefined();
    await expect(confirmRun('capture', source(), 'prod ', f.ctx)).rejects.toThrow(UsageError);
  });
});
