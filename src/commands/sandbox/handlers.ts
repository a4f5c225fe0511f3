import { admin } from './admin-client';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { FailureError, UsageError } from '../../contract/errors';
import { plural } from '../../output/plural';
import { checkBaseUrl } from '../../config/base-url';
import { sandboxDbPath } from '../../config/paths';
import { parseDuration } from '../../contract/values/duration';
import type { Context } from '../context';
import { idArg, intFlag, need } from '../flags';
import { many, one } from '../result';
import type { CommandResult, Input } from '../result';

const METHODS = ['card', 'netbanking', 'wallet', 'upi'];

function probability(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  const value = Number(text);
  if (!/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(text) || value < 0 || value > 1)
    throw new UsageError(`--fault-rate must be a probability from 0 to 1: got "${text}"`);
  return value;
}

function webhookSecretFlag(raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  const secret = String(raw);
  if (!/^[\x21-\x7e]{8,256}$/.test(secret))
    throw new UsageError('--webhook-secret must be 8 to 256 printable characters without spaces');
  return secret;
}

export async function start({ opts }: Input, ctx: Context): Promise<CommandResult> {
  const defaultDb = sandboxDbPath(ctx.paths);
  const db = opts.db === undefined ? defaultDb : String(opts.db);
  const options = {
    db,
    port: intFlag(opts.port, '--port', 0, 65535) ?? 4010,
    rateLimit: intFlag(opts.rateLimit, '--rate-limit', 0),
    faultRate: probability(opts.faultRate),
    latencyMs: intFlag(opts.latency, '--latency', 0, 600_000),
    seed: intFlag(opts.seed, '--seed', 0),
    captureWindowSeconds:
      opts.captureWindow === undefined
        ? undefined
        : need(parseDuration(String(opts.captureWindow)), '--capture-window'),
    webhook: opts.webhook === undefined ? undefined : need(checkBaseUrl(String(opts.webhook)), '--webhook'),
    webhookSecret: webhookSecretFlag(opts.webhookSecret),
  };
  if (db !== ':memory:') mkdirSync(dirname(db), { recursive: true });
  const { startSandbox } = await import('../../sandbox');
  const sandbox = await startSandbox(options).catch((err: NodeJS.ErrnoException) => {
    if (err?.code !== 'EADDRINUSE') throw err;
    const busy = new FailureError(`port ${options.port} is already in use (another payctl sandbox start?)`);
    busy.hints.push('pick another with --port N, or --port 0 for any free port (its URL is printed)');
    throw busy;
  });
  // Only the default database is the user's sandbox: a throwaway instance (--db :memory:, a test file)
  // must not point their "sandbox" profile at a port that is gone once it stops.
  const ownsProfile = resolve(db) === resolve(defaultDb);
  if (ownsProfile) {
    const store = await ctx.profiles();
    store.save(
      'sandbox',
      { key_id: sandbox.keyId, key_secret: sandbox.keySecret, base_url: sandbox.baseUrl, live: false },
      false,
    );
  }
  const lines =
    ctx.settings.format === 'json' || ctx.settings.format === 'ndjson'
      ? [
          JSON.stringify({
            base_url: sandbox.baseUrl,
            origin: sandbox.origin,
            key_id: sandbox.keyId,
            key_secret: sandbox.keySecret,
            webhook_secret: sandbox.webhookSecret,
          }),
        ]
      : [
          `sandbox listening on ${sandbox.baseUrl}   (origin ${sandbox.origin}, for SDKs that add /v1 themselves)`,
          `key id:         ${sandbox.keyId}`,
          `key secret:     ${sandbox.keySecret}   (local sandbox key, stored in ${db === ':memory:' ? 'memory' : db})`,
          `webhook secret: ${sandbox.webhookSecret}   (signs X-Razorpay-Signature${options.webhook ? ` of events sent to ${options.webhook}` : '; no --webhook set'})`,
          ownsProfile
            ? `profile "sandbox" written; try: payctl -p sandbox orders list`
            : `profile "sandbox" left as it was (not the default database); use the keys above`,
        ];
  const until = new Promise<void>((resolve) =>
    ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
  ).then(() => sandbox.close());
  return { type: 'serve', lines, until };
}

export async function pay({ args, opts }: Input, ctx: Context): Promise<CommandResult> {
  if (
    String(args[0] ?? '')
      .trim()
      .startsWith('sub_')
  )
    return paySubscription(idArg(args[0], 'subscription'), opts, ctx);
  const orderId = idArg(args[0], 'order');
  const method = opts.method === undefined ? 'card' : String(opts.method);
  if (!METHODS.includes(method)) throw new UsageError(`--method must be one of ${METHODS.join(', ')}: got "${method}"`);
  const body = {
    order_id: orderId,
    method,
    fail: Boolean(opts.fail),
    email: opts.email === undefined ? undefined : String(opts.email),
    contact: opts.contact === undefined ? undefined : String(opts.contact),
  };
  const api = await ctx.api();
  return one('payment', await admin(api, 'POST', '/checkout', body));
}

async function paySubscription(id: string, opts: Input['opts'], ctx: Context): Promise<CommandResult> {
  const method = opts.method === undefined ? 'card' : String(opts.method);
  if (!METHODS.includes(method)) throw new UsageError(`--method must be one of ${METHODS.join(', ')}: got "${method}"`);
  const api = await ctx.api();
  return one(
    'subscription',
    await admin(api, 'POST', '/subscriptions/authorize', { subscription_id: id, method, fail: Boolean(opts.fail) }),
  );
}

export async function clock(_input: Input, ctx: Context): Promise<CommandResult> {
  const api = await ctx.api();
  return one('generic', await admin(api, 'GET', '/clock'));
}

export async function clockAdvance({ args }: Input, ctx: Context): Promise<CommandResult> {
  if (args[0] === undefined) throw new UsageError('missing DURATION, e.g. `payctl sandbox clock advance 6d`');
  const seconds = need(parseDuration(String(args[0])), 'DURATION');
  const api = await ctx.api();
  return one('generic', await admin(api, 'POST', '/clock/advance', { seconds }));
}

export async function reset(_input: Input, ctx: Context): Promise<CommandResult> {
  const api = await ctx.api();
  await admin(api, 'POST', '/reset');
  return { type: 'done', message: 'sandbox reset: every resource and counter deleted, clock back to real time' };
}

export async function seed({ args, opts }: Input, ctx: Context): Promise<CommandResult> {
  const orders = intFlag(args[0], 'N', 0, 100_000);
  const authorized = intFlag(opts.authorized, '--authorized', 0, 100_000);
  const body = { orders: orders ?? (authorized === undefined ? 20 : 0), authorized: authorized ?? 0 };
  const api = await ctx.api();
  const seeded = await admin<{ order_ids: string[]; payment_ids: string[] }>(api, 'POST', '/seed', body);
  const ids = body.authorized ? seeded.payment_ids : seeded.order_ids;
  ctx.notice(
    `seeded ${plural(seeded.order_ids.length, 'order')}, ${plural(seeded.payment_ids.length, 'authorized payment')}; printing ${body.authorized ? 'payment' : 'order'} ids`,
  );
  return {
    type: 'lines',
    lines: ctx.settings.formatChosen && ctx.settings.format === 'json' ? [JSON.stringify(ids, null, 2)] : ids,
  };
}

export async function stats(_input: Input, ctx: Context): Promise<CommandResult> {
  const api = await ctx.api();
  return one('generic', await admin(api, 'GET', '/stats'));
}

export async function customerCreate({ opts }: Input, ctx: Context): Promise<CommandResult> {
  if (opts.contact === undefined) throw new UsageError('missing --contact (e.g. +919876543210)');
  const body = {
    contact: String(opts.contact),
    email: opts.email === undefined ? undefined : String(opts.email),
    name: opts.name === undefined ? undefined : String(opts.name),
  };
  const api = await ctx.api();
  return one('customer', await admin(api, 'POST', '/customers', body));
}

export async function events(_input: Input, ctx: Context): Promise<CommandResult> {
  const api = await ctx.api();
  const { items } = await admin<{ items: unknown[] }>(api, 'GET', '/events');
  return many('event', items);
}
