import type { Settings } from './context';

/** What of an invocation decides where a printed command goes and what it shows: never the secret. */
export type Invocation = Pick<Settings, 'profile' | 'baseUrl' | 'sandbox' | 'yes' | 'tz'>;

export interface PrintOptions {
  /** The command reads a time window (`--from`): the zone that decides it is named. */
  window?: boolean;
  /** The command may move money again: `--yes` when the invocation had it (a script without a terminal). */
  write?: boolean;
}

/** Pure: one word as a POSIX shell reads it back. */
export const shellWord = (s: string) => (/^[A-Za-z0-9_.,:@/=+%-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * Pure: the one way payctl prints a command for a person (or a script) to run next: the service the
 * write used (`--sandbox`, `-p NAME`, `--base-url URL`), then the command, the zone of its window and
 * `--yes` where the invocation needed it. Credentials from the environment are not repeated: they are
 * in the environment the command is run from, and a secret is never printed.
 */
export function printed(inv: Invocation | undefined, args: string[], opts: PrintOptions = {}): string {
  const words = ['payctl'];
  if (inv?.sandbox) words.push('--sandbox');
  if (inv?.profile !== undefined) words.push('-p', inv.profile);
  if (inv?.baseUrl !== undefined) words.push('--base-url', inv.baseUrl);
  words.push(...args);
  if (opts.window && inv) words.push('--tz', inv.tz);
  if (opts.write && inv?.yes) words.push('--yes');
  return words.map(shellWord).join(' ');
}
