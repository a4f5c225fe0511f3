import { UsageError } from '../../contract/errors';
import { checkBaseUrl } from '../../config/base-url';
import { PROFILE_NAME, maskSecret } from '../../config/profiles';
import type { Profile, ProfileStore } from '../../config/profiles';
import type { Context } from '../context';
import { promptSession } from '../prompt';
import { need } from '../flags';
import { many, one } from '../result';
import type { CommandResult, Input } from '../result';

const view = (name: string, p: Profile, isDefault: boolean) => ({
  name,
  key_id: p.key_id,
  key_secret: maskSecret(p.key_secret),
  base_url: p.base_url,
  live: p.live,
  default: isDefault,
});

function profileName(raw: unknown): string {
  const name = String(raw ?? '');
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

export async function add({ args, opts }: Input, ctx: Context): Promise<CommandResult> {
  const name = profileName(args[0]);
  const keyId = opts.keyId === undefined ? await ask(ctx, '--key-id', 'Key id') : String(opts.keyId).trim();
  if (!/^[A-Za-z0-9_]{4,64}$/.test(keyId)) throw new UsageError('--key-id must be 4-64 letters, digits or _');
  const rawUrl = ctx.settings.baseUrl ?? (await ask(ctx, '--base-url', 'Base URL (https://…/v1)'));
  const baseUrl = need(checkBaseUrl(rawUrl), '--base-url');
  let secret: string;
  if (opts.keySecretStdin) secret = (await ctx.readStdin()).trim();
  else if (ctx.env.PAYCTL_KEY_SECRET) secret = ctx.env.PAYCTL_KEY_SECRET;
  else secret = await ask(ctx, 'key secret (--key-secret-stdin or PAYCTL_KEY_SECRET)', 'Key secret', true);
  if (!secret) throw new UsageError('the key secret is empty');
  const store = await ctx.profiles();
  const profile: Profile = { key_id: keyId, key_secret: secret, base_url: baseUrl, live: Boolean(opts.live) };
  store.save(name, profile, Boolean(opts.default));
  ctx.notice(`profile ${name} saved to ${store.path}`);
  return one('profile', view(name, profile, store.defaultName === name));
}

export async function list(_input: Input, ctx: Context): Promise<CommandResult> {
  const store = await ctx.profiles();
  return many(
    'profile',
    store.list().map((p) => view(p.name, p.profile, p.isDefault)),
  );
}

export async function use({ args }: Input, ctx: Context): Promise<CommandResult> {
  const name = profileName(args[0]);
  const store = await ctx.profiles();
  existing(store, name);
  store.setDefault(name);
  return { type: 'done', message: `default profile is now ${name}` };
}

export async function remove({ args }: Input, ctx: Context): Promise<CommandResult> {
  const name = profileName(args[0]);
  const store = await ctx.profiles();
  existing(store, name);
  store.remove(name);
  return { type: 'done', message: `profile ${name} removed` };
}

export async function show({ args }: Input, ctx: Context): Promise<CommandResult> {
  const store = await ctx.profiles();
  const name =
    args[0] === undefined
      ? (ctx.settings.profile ?? ctx.env.PAYCTL_PROFILE ?? store.defaultName)
      : profileName(args[0]);
  if (!name) throw new UsageError('no default profile: name one, or run `payctl profile add NAME`');
  return one('profile', view(name, existing(store, name), store.defaultName === name));
}

export async function test({ args }: Input, ctx: Context): Promise<CommandResult> {
  const name = args[0] === undefined ? undefined : profileName(args[0]);
  const api = await ctx.api(name);
  const creds = await ctx.credentials(name);
  const started = Date.now();
  await api.call('listOrders', { query: { count: 1 } });
  return {
    type: 'done',
    message: `${creds.source} works: ${creds.baseUrl} accepted the key in ${Date.now() - started} ms`,
  };
}
