import { describe, expect, it } from 'vitest';
import { AuthError } from '../../../src/contract/errors';
import { runSecretCommand } from '../../../src/config/secret-command';

const opts = { env: { PATH: process.env.PATH }, source: 'profile vault' };

describe('a key secret command', () => {
  it('gives what it printed, trimmed, and sees the environment it is given', async () => {
    expect(await runSecretCommand("printf '  s3cr3t-from-vault\\n'", opts)).toBe('s3cr3t-from-vault');
    expect(
      await runSecretCommand('printf %s "$VAULT_ITEM"', { ...opts, env: { ...opts.env, VAULT_ITEM: 'xyz' } }),
    ).toBe('xyz');
  });

  it.each([
    ['a non-zero exit', 'echo nope >&2; exit 3', /exited with status 3/],
    ['empty output', 'true', /printed nothing/],
    ['two lines', 'printf "a\\nb\\n"', /more than one line/],
    ['a command that is not there', 'payctl-no-such-command-xyz', /exited with status 127/],
  ])('%s is one auth error naming the profile (exit 3), nothing sent', async (_what, command, message) => {
    const run = runSecretCommand(command, opts);
    await expect(run).rejects.toThrow(AuthError);
    await expect(runSecretCommand(command, opts)).rejects.toThrow(message);
    await expect(runSecretCommand(command, opts)).rejects.toThrow(
      /^the key secret command of profile vault .*nothing was sent/,
    );
  });

  // exec: dash would otherwise leave `sleep` running past the shell it outlives, holding the worker's stderr.
  it('that hangs is stopped at its timeout', async () => {
    const started = Date.now();
    await expect(runSecretCommand('exec sleep 30', { ...opts, timeoutMs: 300 })).rejects.toThrow(
      /no answer within 0.3s/,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
