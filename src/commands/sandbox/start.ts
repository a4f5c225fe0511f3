import { dirname, resolve } from 'node:path';
import { FailureError, UsageError } from '../../contract/errors';
import { checkBaseUrl } from '../../config/base-url';
import { sandboxDbPath } from '../../config/paths';
import { writableDir } from '../../config/writable';
import { parseDuration } from '../../contract/values/duration';
import { sandboxSecret } from '../../contract/webhooks/secret';
import type { Context } from '../context';
import { intFlag, need } from '../flags';
import type { CommandResult } from '../result';

export interface StartSandboxOptions {
  port: string;
  db?: string;
  rateLimit?: string;
  faultRate?: string;
  latency?: string;
  seed?: string;
  captureWindow?: string;
  feeRate?: string;
  webhook?: string;
  webhookSecret?: string;
  /** false with --no-idempotency: the sandbox then ignores X-Refund-Idempotency. */
  idempotency?: boolean;
}

function probability(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  const value = Number(text);
  if (!/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(text) || value < 0 || value > 1)
    throw new UsageError(`--fault-rate must be a probability from 0 to 1: got "${text}"`);
  return value;
}

/** A percentage with at most two decimals (basis points), from 0 to 100. */
function feeRateFlag(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(text) || Number(text) > 100)
    throw new UsageError(`--fee-rate must be a percentage from 0 to 100 with at most two decimals: got "${text}"`);
  return Number(text);
}

const webhookSecretFlag = (secret: string | undefined) =>
  secret === undefined ? undefined : need(sandboxSecret(secret, '--webhook-secret'));

/** Serves until the run's signal (Ctrl-C, SIGTERM): the result's `until` closes the sandbox then. */
export async function startSandbox(opts: StartSandboxOptions, ctx: Context): Promise<CommandResult> {
  const defaultDb = sandboxDbPath(ctx.paths);
  const db = opts.db ?? defaultDb;
  const options = {
    db,
    port: intFlag(opts.port, '--port', 0, 65535),
    rateLimit: intFlag(opts.rateLimit, '--rate-limit', 0),
    faultRate: probability(opts.faultRate),
    latencyMs: intFlag(opts.latency, '--latency', 0, 600_000),
    seed: intFlag(opts.seed, '--seed', 0),
    captureWindowSeconds:
      opts.captureWindow === undefined ? undefined : need(parseDuration(opts.captureWindow), '--capture-window'),
    feeRate: feeRateFlag(opts.feeRate),
    webhook: opts.webhook === undefined ? undefined : need(checkBaseUrl(opts.webhook), '--webhook'),
    webhookSecret: webhookSecretFlag(opts.webhookSecret),
    ignoreIdempotency: opts.idempotency === false,
  };
  if (db !== ':memory:') writableDir(dirname(db), 'directory of the sandbox database');
  const { startSandbox: serve } = await import('../../sandbox');
  const sandbox = await serve(options).catch((err: NodeJS.ErrnoException) => {
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
    const profile = { key_id: sandbox.keyId, key_secret: sandbox.keySecret, base_url: sandbox.baseUrl, live: false };
    store.save('sandbox', profile, false);
  }
  const record = {
    base_url: sandbox.baseUrl,
    origin: sandbox.origin,
    key_id: sandbox.keyId,
    key_secret: sandbox.keySecret,
    webhook_secret: sandbox.webhookSecret,
    idempotency: !options.ignoreIdempotency,
  };
  const keys = options.ignoreIdempotency ? ['X-Refund-Idempotency is ignored (--no-idempotency)'] : [];
  const signs = options.webhook ? ` of events sent to ${options.webhook}` : '; no --webhook set';
  const text = [
    `sandbox listening on ${sandbox.baseUrl}   (origin ${sandbox.origin}, for SDKs that add /v1 themselves)`,
    `key id:         ${sandbox.keyId}`,
    `key secret:     ${sandbox.keySecret}   (local sandbox key, stored in ${db === ':memory:' ? 'memory' : db})`,
    `webhook secret: ${sandbox.webhookSecret}   (signs X-Razorpay-Signature${signs})`,
    ownsProfile
      ? `profile "sandbox" written; try: payctl -p sandbox orders list`
      : `profile "sandbox" left as it was (not the default database); use the keys above`,
    ...keys,
  ];
  const until = new Promise<void>((done) => ctx.signal.addEventListener('abort', () => done(), { once: true })).then(
    () => sandbox.close(),
  );
  return { type: 'serve', record, lines: text, until };
}
