import type { AddressInfo } from 'node:net';
import { Accounts } from './accounts';
import { createSandboxServer } from './server';
import type { Misbehaviour } from './server';

export interface SandboxOptions extends Misbehaviour {
  db: string;
  port?: number;
  host?: string;
  captureWindowSeconds?: number;
  /** The service charge on captures, in percent (GST comes on top); kept in the database. */
  feeRate?: number;
  webhook?: string;
  /** Signs webhook deliveries; kept in the database, generated there when never given. */
  webhookSecret?: string;
}

export interface RunningSandbox {
  baseUrl: string;
  origin: string;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  close(): Promise<void>;
}

const FIVE_DAYS = 5 * 86_400;

/** Serves the service interface on loopback from a SQLite file (or :memory:). */
export async function startSandbox(opts: SandboxOptions): Promise<RunningSandbox> {
  const config = { captureWindowSeconds: opts.captureWindowSeconds ?? FIVE_DAYS };
  const accounts = new Accounts({ ...opts, config });
  const { keyId, keySecret, webhookSecret } = accounts.main;
  const { server, drain } = createSandboxServer({
    accounts,
    config,
    rateLimit: opts.rateLimit,
    faultRate: opts.faultRate,
    latencyMs: opts.latencyMs,
    seed: opts.seed,
    ignoreIdempotency: opts.ignoreIdempotency,
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  }).catch(async (err: unknown) => {
    await accounts.close();
    throw err;
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    baseUrl: `${origin}/v1`,
    origin,
    keyId,
    keySecret,
    webhookSecret,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      // Deliveries under way finish (and are recorded) before the database closes.
      await drain();
      await accounts.close();
    },
  };
}
