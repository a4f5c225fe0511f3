import type { ApiClient } from '../client/client';
import { DEFAULT_RETRY } from '../client/retry';
import type { RetryPolicy } from '../client/retry';
import { resolveCredentials } from '../config/credentials';
import type { Credentials } from '../config/credentials';
import { sandboxDbPath } from '../config/paths';
import { writableDir } from '../config/writable';
import type { PayctlPaths } from '../config/paths';
import type { ProfileStore } from '../config/profiles';
import { knownSecret, redact } from '../config/secrets';
import { UsageError } from '../contract/errors';
import type { ApiOptions, Context, IO, Settings } from './context';
import type { WritesInFlight } from './writes-in-flight';

interface Runtime extends Context {
  dispose(): Promise<void>;
}

/** Builds the handlers' context; heavy parts (HTTP pool, sandbox, config file) load on first use. */
export function createRuntime(settings: Settings, io: IO, signal: AbortSignal, writes?: WritesInFlight): Runtime {
  const closers: Array<() => Promise<void>> = [];
  const notice = (message: string) => {
    io.stderr.write(`${message}\n`);
  };
  const profiles = profileStore(settings.paths);
  const credentials = credentialSource(settings, profiles, closers);
  const api = apiClients({ settings, signal, writes, notice, credentials, closers });
  return {
    settings,
    io,
    paths: settings.paths,
    signal,
    nowMs: () => Date.now(),
    api,
    credentials,
    profiles,
    notice,
    confirm: (question) => confirmOnTerminal(question, settings, io, signal, credentials),
    readStdin: () => readAll(io.stdin),
    async dispose() {
      for (const close of closers) await close().catch(() => undefined);
    },
  };
}

/** The profile store, loaded on first use (the store, undici and the sandbox load only when a command needs them). */
function profileStore(paths: PayctlPaths): () => Promise<ProfileStore> {
  let store: ProfileStore | undefined;
  return async () => (store ??= new (await import('../config/profiles')).ProfileStore(paths.config));
}

/**
 * The active credentials, or a named profile's: --sandbox starts the embedded sandbox once (closed
 * with the run); environment credentials need no profile store.
 */
function credentialSource(
  settings: Settings,
  profiles: () => Promise<ProfileStore>,
  closers: Array<() => Promise<void>>,
): (profile?: string) => Promise<Credentials> {
  let sandboxCreds: Promise<Credentials> | undefined;
  const startInProcessSandbox = async (): Promise<Credentials> => {
    const { startSandbox } = await import('../sandbox');
    const db = sandboxDbPath(settings.paths);
    writableDir(settings.paths.data, 'data directory (the sandbox database)');
    const sandbox = await startSandbox({ db, port: 0 });
    closers.push(() => sandbox.close());
    knownSecret(sandbox.keyId, sandbox.keySecret);
    return {
      keyId: sandbox.keyId,
      keySecret: sandbox.keySecret,
      baseUrl: sandbox.baseUrl,
      live: false,
      source: 'sandbox',
    };
  };
  return async (profile) => {
    if (settings.sandbox && profile === undefined) return (sandboxCreds ??= startInProcessSandbox());
    const { keyEnv } = settings;
    const loaded = keyEnv.keyId && keyEnv.keySecret ? undefined : await profiles();
    return resolveCredentials({
      keyEnv,
      profile: profile ?? settings.profile,
      baseUrl: settings.baseUrl ?? settings.baseUrlEnv,
      store: () => loaded as ProfileStore,
    });
  };
}

interface ClientParts {
  settings: Settings;
  signal: AbortSignal;
  writes?: WritesInFlight;
  notice: (message: string) => void;
  credentials: (profile?: string) => Promise<Credentials>;
  closers: Array<() => Promise<void>>;
}

/** One API client per profile and kind of use, made on first use; its pool is closed with the run. */
function apiClients(parts: ClientParts): (profile?: string, opts?: ApiOptions) => Promise<ApiClient> {
  const { settings, signal, writes, notice, closers } = parts;
  const clients = new Map<string, ApiClient>();
  // A secret manager is asked once per process, and only when a request needs the secret.
  const secretRuns = new Map<string, Promise<string>>();
  const secretOf = async (creds: Credentials) => {
    const command = creds.secretCommand!;
    if (!secretRuns.has(command)) {
      const { runSecretCommand } = await import('../config/secret-command');
      const run = runSecretCommand(command, { env: settings.childEnv, source: creds.source, signal });
      secretRuns.set(
        command,
        run.then((secret) => (knownSecret(creds.keyId, secret), secret)),
      );
    }
    return secretRuns.get(command)!;
  };
  return async (profile, opts = {}) => {
    const key = `${profile ?? ''}|${opts.uninterruptible ? 'u' : ''}|${opts.connections ?? ''}`;
    const cached = clients.get(key);
    if (cached) return cached;
    const creds = await parts.credentials(profile);
    const keySecret = creds.secretCommand ? await secretOf(creds) : creds.keySecret;
    const [{ HttpClient }, { ApiClient }, { routeFor }] = await Promise.all([
      import('../client/http'),
      import('../client/client'),
      import('../config/route'),
    ]);
    const route = routeFor(creds, settings.network);
    if (route.direct && settings.debug) notice(`[debug] ${route.direct}`);
    const http = new HttpClient({
      route,
      retry: retryPolicy(settings.maxRetries),
      baseUrl: creds.baseUrl,
      keyId: creds.keyId,
      keySecret,
      timeoutMs: settings.timeoutMs,
      connections: opts.connections,
      signal: opts.uninterruptible ? undefined : signal,
      debug: settings.debug ? (line) => notice(`[debug] ${redact(line)}`) : undefined,
      onWait: (line) => notice(`payctl: ${line}`),
    });
    // A single command's write that a signal cuts off is reported with the command to check it.
    const client = new ApiClient(http, writes && !opts.uninterruptible ? (p, b) => writes.start(p, b) : undefined);
    clients.set(key, client);
    closers.unshift(() => http.close());
    return client;
  };
}

/** Asks on a terminal (naming the target), or goes ahead with --yes; without either, exit 2 with nothing sent. */
async function confirmOnTerminal(
  question: string | (() => Promise<string>),
  settings: Settings,
  io: IO,
  signal: AbortSignal,
  credentials: (profile?: string) => Promise<Credentials>,
): Promise<void> {
  if (settings.yes) return;
  if (!io.stdinIsTTY || !io.stderrIsTTY) {
    throw new UsageError(
      'this needs a confirmation and there is no terminal to ask on: pass --yes to go ahead (nothing was sent)',
    );
  }
  const prompt = await import('./prompt');
  const asked =
    typeof question === 'string'
      ? question
      : await question().catch((err: unknown) => {
          throw prompt.asInterrupt(err);
        });
  const { targetLabel } = await import('./target');
  const creds = await credentials().catch(() => undefined);
  const message = creds ? `${targetLabel(creds, settings.table.stderrColor)} ${asked}` : asked;
  const { confirm: ask } = await import('@inquirer/prompts');
  let ok: boolean;
  try {
    const columns = (io.stderr as { columns?: number }).columns;
    ok = await ask({ message: prompt.fitQuestion(message, columns), default: false }, {
      input: io.stdin,
      output: io.stderr,
      signal,
    } as Parameters<typeof ask>[1]);
  } catch (err) {
    throw prompt.asInterrupt(err);
  }
  prompt.mustConfirm(ok);
}

/** All of stdin, as text (for --key-secret-stdin, --input -). */
async function readAll(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

/** PAYCTL_MAX_RETRIES tunes how long payctl keeps retrying (scripts that prefer to fail fast). */
function retryPolicy(raw: string | undefined): RetryPolicy {
  if (raw === undefined) return DEFAULT_RETRY;
  if (!/^\d+$/.test(raw) || Number(raw) > 20)
    throw new UsageError(`PAYCTL_MAX_RETRIES must be a whole number from 0 to 20: got "${raw}"`);
  return { ...DEFAULT_RETRY, maxRetries: Number(raw) };
}
