import { checkBaseUrl } from '../../config/base-url';
import { UsageError } from '../../contract/errors';
import { localTime } from '../../output/time';
import type { Context } from '../context';
import { need } from '../flags';
import { many, one } from '../result';
import type { CommandResult } from '../result';
import { accountAdmin } from './admin-client';

const admin = async (ctx: Context) => accountAdmin(await ctx.api());

const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A snapshot name is checked here too, so a bad one is a usage error with nothing sent. */
function snapshotName(raw: string, what = 'NAME'): string {
  const name = raw.trim();
  if (!SNAPSHOT_NAME.test(name))
    throw new UsageError(`${what} must be 1 to 64 letters, digits, dots, hyphens or underscores: got "${raw}"`);
  return name;
}

export interface CreateAccountOptions {
  name?: string;
  from?: string;
  webhook?: string;
}

/** A new isolated account on the sandbox: prints its keys and webhook secret (they open this account only). */
export async function createAccount(opts: CreateAccountOptions, ctx: Context): Promise<CommandResult> {
  const name = opts.name?.trim();
  if (name !== undefined && (name.length === 0 || name.length > 80))
    throw new UsageError('--name must be 1 to 80 characters');
  const body = {
    ...(name === undefined ? {} : { name }),
    ...(opts.from === undefined ? {} : { from: snapshotName(opts.from, '--from') }),
    ...(opts.webhook === undefined ? {} : { webhook: need(checkBaseUrl(opts.webhook), '--webhook') }),
  };
  const account = await (await admin(ctx)).create(body);
  if (ctx.settings.format === 'table' && !ctx.settings.out)
    ctx.notice(
      `try: PAYCTL_KEY_ID=${account.key_id} PAYCTL_KEY_SECRET=… payctl orders list (this account's records only)`,
    );
  return one('generic', account);
}

const shown = (tz: string) => (s: { name: string; clock: number; records: number; bytes: number }) => ({
  name: s.name,
  clock: localTime(s.clock, tz),
  records: s.records,
  bytes: s.bytes,
});

export async function saveSnapshot(opts: { name: string }, ctx: Context): Promise<CommandResult> {
  return one('generic', shown(ctx.settings.tz)(await (await admin(ctx)).save(snapshotName(opts.name))));
}

export async function loadSnapshot(opts: { name: string }, ctx: Context): Promise<CommandResult> {
  return one('generic', shown(ctx.settings.tz)(await (await admin(ctx)).load(snapshotName(opts.name))));
}

export async function listSnapshots(_opts: object, ctx: Context): Promise<CommandResult> {
  return many('generic', (await (await admin(ctx)).list()).items.map(shown(ctx.settings.tz)));
}

export async function deleteSnapshot(opts: { name: string }, ctx: Context): Promise<CommandResult> {
  const { name } = await (await admin(ctx)).remove(snapshotName(opts.name));
  return { type: 'done', message: `snapshot ${name} deleted` };
}
