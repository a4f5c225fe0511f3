import { UsageError } from '../../contract/errors';
import { resolve } from 'node:path';
import { isLiveKey } from '../../config/credentials';
import { checkBaseUrl } from '../../config/base-url';
import { readCaFile } from '../../config/network';
import { PROFILE_NAME, maskSecret } from '../../config/profile-text';
import type { Profile, ProfileStore } from '../../config/profiles';
import type { Context } from '../context';
import { promptSession } from '../prompt';
import { need } from '../flags';
import { many, one } from '../result';
import type { CommandResult } from '../result';

/** The secret masked, or where it comes from: never the secret itself. */
const view = (name: string, p: Profile, isDefault: boolean) => ({
  name,
  key_id: p.key_id,
  key_secret: p.key_secret ? maskSecret(p.key_secret) : `from command: ${p.key_secret_command ?? ''}`,
  secret_from: p.key_secret ? 'config file' : 'command',
  ...(p.key_secret_command && !p.key_secret ? { key_secret_command: p.key_secret_command } : {}),
  base_url: p.base_url,
  ...(p.ca_file ? { ca_file: p.ca_file } : {}),
  live: p.live || isLiveKey(p.key_id),
  default: isDefault,
});

function profileName(name: string): string {
  if (!PROFILE_NAME.test(name))
    throw new UsageError(
      `profile name must be 1-40 letters, digits, - or _, starting with a letter or digit: got ${JSON.stringify(name)}`,
    );
  return name;
}

function existing(store: ProfileStore, name: string): Profile {
  const p = store.get(name);
  if (!p) throw new UsageError(`no profile named "${name}": see \`payctl profile list\``);
  return p;
}

/** Asks only on a terminal; elsewhere a missing value is a usage error naming the flag. */
async function ask(ctx: Context, flag: string, message: string, secret = false): Promise<string> {
  if (!ctx.io.stdinIsTTY || !ctx.io.stderrIsTTY) throw new UsageError(`missing ${flag} (no terminal to ask on)`);
  const s = await promptSession(ctx);
  const opts = { message, validate: (v: string) => (v.trim() ? true : 'required') };
  const value = await s.ask((p) => (secret ? p.password({ ...opts, mask: '*' }, s.context) : p.input(opts, s.context)));
  return value.trim();
}

export interface AddProfileOptions {
  name: string;
  keyId?: string;
  keySecretStdin: boolean;
  /** A shell command that prints the secret, stored instead of it and run when a request needs it. */
  keySecretCommand?: string;
  caFile?: string;
  live: boolean;
  makeDefault: boolean;
}

/**
 * The secret comes from stdin, PAYCTL_KEY_SECRET, or a hidden question: never from a flag (shell history).
 * With --key-secret-command only the command is stored; it is run when a request needs the secret.
 */
export async function addProfile(opts: AddProfileOptions, ctx: Context): Promise<CommandResult> {
  const name = profileName(opts.name);
  const command = opts.keySecretCommand?.trim();
  if (opts.keySecretCommand !== undefined && !command) throw new UsageError('--key-secret-command is empty');
  if (command && opts.keySecretStdin)
    throw new UsageError('--key-secret-command and --key-secret-stdin are two sources for one secret: pick one');
  const keyId = opts.keyId?.trim() ?? (await ask(ctx, '--key-id', 'Key id'));
  if (!/^[A-Za-z0-9_]{4,64}$/.test(keyId)) throw new UsageError('--key-id must be 4-64 letters, digits or _');
  const rawUrl = ctx.settings.baseUrl ?? (await ask(ctx, '--base-url', 'Base URL (https://…/v1)'));
  const baseUrl = need(checkBaseUrl(rawUrl), '--base-url');
  const caFile = opts.caFile === undefined ? undefined : resolve(opts.caFile);
  if (caFile) readCaFile(caFile, '--ca-file');
  const profile: Profile = { key_id: keyId, base_url: baseUrl, live: opts.live };
  if (command) profile.key_secret_command = command;
  else profile.key_secret = await secretFor(opts, ctx);
  if (caFile) profile.ca_file = caFile;
  const store = await ctx.profiles();
  store.save(name, profile, opts.makeDefault);
  ctx.notice(`profile ${name} saved to ${store.path}`);
  return one('profile', view(name, profile, store.defaultName === name));
}

async function secretFor(opts: AddProfileOptions, ctx: Context): Promise<string> {
  let secret: string;
  if (opts.keySecretStdin) secret = (await ctx.readStdin()).trim();
  else if (ctx.settings.keyEnv.keySecret) secret = ctx.settings.keyEnv.keySecret;
  else
    secret = await ask(
      ctx,
      'key secret (--key-secret-stdin, --key-secret-command or PAYCTL_KEY_SECRET)',
      'Key secret',
      true,
    );
  if (!secret) throw new UsageError('the key secret is empty');
  return secret;
}

export async function listProfiles(_opts: object, ctx: Context): Promise<CommandResult> {
  const store = await ctx.profiles();
  return many(
    'profile',
    store.list().map((p) => view(p.name, p.profile, p.isDefault)),
  );
}

/** The store, and the name of a profile it holds (a usage error if it holds none by that name). */
async function storeWith(ctx: Context, rawName: string) {
  const name = profileName(rawName);
  const store = await ctx.profiles();
  existing(store, name);
  return { name, store };
}

export async function useProfile(opts: { name: string }, ctx: Context): Promise<CommandResult> {
  const { name, store } = await storeWith(ctx, opts.name);
  if (!store.setDefault(name)) throw new UsageError(`no profile named "${name}": see \`payctl profile list\``);
  return { type: 'done', message: `default profile is now ${name}` };
}

export async function removeProfile(opts: { name: string }, ctx: Context): Promise<CommandResult> {
  const { name, store } = await storeWith(ctx, opts.name);
  store.remove(name);
  return { type: 'done', message: `profile ${name} removed` };
}

/** Without a name: the active profile (-p, PAYCTL_PROFILE, then the default). */
export async function showProfile(opts: { name?: string }, ctx: Context): Promise<CommandResult> {
  const store = await ctx.profiles();
  const name = opts.name === undefined ? (ctx.settings.profile ?? store.defaultName) : profileName(opts.name);
  if (!name) throw new UsageError('no default profile: name one, or run `payctl profile add NAME`');
  return one('profile', view(name, existing(store, name), store.defaultName === name));
}

/** One cheap read (a page of one order) proves the key is accepted. */
export async function testProfile(opts: { name?: string }, ctx: Context): Promise<CommandResult> {
  const name = opts.name === undefined ? undefined : profileName(opts.name);
  const api = await ctx.api(name);
  const creds = await ctx.credentials(name);
  const started = ctx.nowMs();
  await api.call('listOrders', { query: { count: 1 } });
  return {
    type: 'done',
    message: `${creds.source} works: ${creds.baseUrl} accepted the key in ${ctx.nowMs() - started} ms`,
  };
}
