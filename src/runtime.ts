import type { ApiClient } from './client/client';
import { DEFAULT_RETRY } from './client/retry';
import type { RetryPolicy } from './client/retry';
import { FailureError, InterruptedError, UsageError } from './contract/errors';
import { resolveCredentials } from './config/credentials';
import type { Credentials } from './config/credentials';
import { payctlPaths, sandboxDbPath } from './config/paths';
import type { ProfileStore } from './config/profiles';
import type { ApiOptions, Context, IO, Settings } from './commands/context';
import { need } from './commands/flags';
import { parseFields } from './output/fields';
import { resolveFormat } from './output/format';
import { localZone, resolveZone } from './contract/values/zone';
import { mkdirSync } from 'node:fs';
import { withoutSignalHooks } from './signals';
import type { WritesInFlight } from './signals';

/** Global options as commander hands them over. */
export interface GlobalFlags {
  profile?: string;
  baseUrl?: string;
  output?: string;
  out?: string;
  fields?: string;
  yes?: boolean;
  dryRun?: boolean;
  debug?: boolean;
  timeout?: string;
  tz?: string;
  sandbox?: boolean;
  /** false with --no-color. */
  color?: boolean;
  wide?: boolean;
}

export interface Runtime extends Context {
  dispose(): Promise<void>;
}

function timeoutMs(raw: string | undefined, env: NodeJS.ProcessEnv): number {
  const text = raw ?? env.PAYCTL_TIMEOUT;
  if (text === undefined) return 30_000;
  const seconds = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || seconds <= 0 || seconds > 3600)
    throw new UsageError(`--timeout must be seconds from 0.001 to 3600: got "${text}"`);
  return Math.round(seconds * 1000);
}

export function settingsFrom(flags: GlobalFlags, env: NodeJS.ProcessEnv, io: IO): Settings {
  // A zone that was asked for is checked now (exit 2 before anything is sent); the machine's own is
  // looked up only if a time is shown.
  const asked = flags.tz ?? env.PAYCTL_TZ;
  let tz = asked ? need(resolveZone(flags.tz, env.PAYCTL_TZ), '--tz') : undefined;
  return {
    get tz() {
      return (tz ??= localZone());
    },
    format: need(resolveFormat(flags.output, env.PAYCTL_OUTPUT, io.stdoutIsTTY), '--output'),
    formatChosen: Boolean(flags.output ?? env.PAYCTL_OUTPUT),
    formatSource: flags.output ? 'flag' : env.PAYCTL_OUTPUT ? 'env' : 'default',
    tzChosen: Boolean(asked),
    fields: flags.fields === undefined ? undefined : need(parseFields(flags.fields), '--fields'),
    yes: Boolean(flags.yes),
    dryRun: Boolean(flags.dryRun),
    debug: Boolean(flags.debug),
    timeoutMs: timeoutMs(flags.timeout, env),
    sandbox: Boolean(flags.sandbox),
    profile: flags.profile,
    baseUrl: flags.baseUrl,
    out: flags.out,
    table: {
      width: terminalWidth(env, io),
      wide: Boolean(flags.wide),
      color: useColor(flags, env, io.stdoutIsTTY),
      stderrColor: useColor(flags, env, io.stderrIsTTY),
    },
  };
}

/** --no-color and NO_COLOR always win; FORCE_COLOR (other than 0/false) colours even a pipe; else a terminal does. */
export function useColor(flags: GlobalFlags, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (flags.color === false || env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !['0', 'false'].includes(force.trim().toLowerCase());
  return isTTY && env.TERM !== 'dumb';
}

/** The width a table must fit: the terminal's; for a pipe, COLUMNS if exported, else no limit. */
function terminalWidth(env: NodeJS.ProcessEnv, io: IO): number | undefined {
  const columns = io.stdoutIsTTY ? (io.stdout as { columns?: number }).columns : undefined;
  if (columns && columns > 0) return columns;
  const fromEnv = Number(env.COLUMNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : undefined;
}

/** Builds the handlers' context; heavy parts (HTTP pool, sandbox, config file) load on first use. */
export function createRuntime(
  settings: Settings,
  env: NodeJS.ProcessEnv,
  io: IO,
  signal: AbortSignal,
  writes?: WritesInFlight,
): Runtime {
  const paths = payctlPaths(env);
  const clients = new Map<string, ApiClient>();
  const closers: Array<() => Promise<void>> = [];
  let store: ProfileStore | undefined;
  let sandboxCreds: Promise<Credentials> | undefined;
  const secrets = new Set<string>();

  const notice = (message: string) => {
    io.stderr.write(`${message}\n`);
  };

  // conf, undici and the sandbox load only when a command needs them (startup time).
  // Loaded without the signal listeners conf's dependencies install (see src/signals.ts).
  const profiles = async () =>
    (store ??= new (await withoutSignalHooks(() => import('./config/profiles'))).ProfileStore(paths.config));

  const startInProcessSandbox = async (): Promise<Credentials> => {
    const { startSandbox } = await import('./sandbox');
    const db = sandboxDbPath(paths);
    mkdirSync(paths.data, { recursive: true });
    const sandbox = await startSandbox({ db, port: 0 });
    closers.push(() => sandbox.close());
    return {
      keyId: sandbox.keyId,
      keySecret: sandbox.keySecret,
      baseUrl: sandbox.baseUrl,
      live: false,
      source: 'sandbox',
    };
  };

  const credentials = async (profile?: string): Promise<Credentials> => {
    if (settings.sandbox && profile === undefined) return (sandboxCreds ??= startInProcessSandbox());
    const loaded = env.PAYCTL_KEY_ID && env.PAYCTL_KEY_SECRET ? undefined : await profiles();
    return resolveCredentials({
      env,
      profile: profile ?? settings.profile,
      baseUrl: settings.baseUrl,
      store: () => loaded as ProfileStore,
    });
  };

  const api = async (profile?: string, opts: ApiOptions = {}): Promise<ApiClient> => {
    const key = `${profile ?? ''}|${opts.uninterruptible ? 'u' : ''}|${opts.connections ?? ''}`;
    const cached = clients.get(key);
    if (cached) return cached;
    const creds = await credentials(profile);
    secrets.add(creds.keySecret);
    const [{ HttpClient }, { ApiClient }] = await Promise.all([import('./client/http'), import('./client/client')]);
    const http = new HttpClient({
      retry: retryPolicy(env),
      baseUrl: creds.baseUrl,
      keyId: creds.keyId,
      keySecret: creds.keySecret,
      timeoutMs: settings.timeoutMs,
      connections: opts.connections,
      signal: opts.uninterruptible ? undefined : signal,
      debug: settings.debug ? (line) => notice(`[debug] ${redact(line, secrets)}`) : undefined,
      onWait: (line) => notice(`payctl: ${line}`),
    });
    const client = new ApiClient(http);
    if (writes && !opts.uninterruptible) {
      // A single command's write that a signal cuts off is reported with the command to check it.
      const execute = client.execute.bind(client);
      client.execute = async <T>(req: Parameters<ApiClient['execute']>[0]) => {
        if (req.method !== 'POST') return execute<T>(req);
        const done = writes.start(req.path, req.body);
        try {
          return await execute<T>(req);
        } finally {
          done();
        }
      };
    }
    clients.set(key, client);
    closers.unshift(() => http.close());
    return client;
  };

  const confirm = async (question: string | (() => Promise<string>)) => {
    if (settings.yes) return;
    if (!io.stdinIsTTY || !io.stderrIsTTY) {
      throw new UsageError(
        'this needs a confirmation and there is no terminal to ask on: pass --yes to go ahead (nothing was sent)',
      );
    }
    const asked = typeof question === 'string' ? question : await question();
    const { targetLabel } = await import('./commands/target');
    const creds = await credentials().catch(() => undefined);
    const message = creds ? `${targetLabel(creds, settings.table.stderrColor)} ${asked}` : asked;
    const { confirm: ask } = await import('@inquirer/prompts');
    let ok: boolean;
    try {
      ok = await ask({ message, default: false }, { input: io.stdin, output: io.stderr, signal } as Parameters<
        typeof ask
      >[1]);
    } catch (err) {
      if ((err as Error)?.name === 'ExitPromptError' || (err as Error)?.name === 'AbortPromptError')
        throw new InterruptedError('SIGINT');
      throw err;
    }
    if (!ok) throw new FailureError('cancelled: nothing was sent');
  };

  const readStdin = async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    return Buffer.concat(chunks).toString('utf8');
  };

  return {
    settings,
    env,
    io,
    paths,
    signal,
    nowMs: () => Date.now(),
    api,
    credentials,
    profiles,
    notice,
    confirm,
    readStdin,
    async dispose() {
      for (const close of closers) await close().catch(() => undefined);
    },
  };
}

/** PAYCTL_MAX_RETRIES tunes how long payctl keeps retrying (scripts that prefer to fail fast). */
function retryPolicy(env: NodeJS.ProcessEnv): RetryPolicy {
  const raw = env.PAYCTL_MAX_RETRIES;
  if (raw === undefined) return DEFAULT_RETRY;
  if (!/^\d+$/.test(raw) || Number(raw) > 20)
    throw new UsageError(`PAYCTL_MAX_RETRIES must be a whole number from 0 to 20: got "${raw}"`);
  return { ...DEFAULT_RETRY, maxRetries: Number(raw) };
}

/** Belt and braces: no secret we know of ever reaches a debug line. */
function redact(line: string, secrets: Set<string>): string {
  let out = line;
  for (const s of secrets) if (s) out = out.split(s).join('[redacted]');
  return out;
}
