import type { ApiClient } from '../client/client';
import type { Credentials } from '../config/credentials';
import type { NetworkSettings } from '../config/network';
import type { PayctlPaths } from '../config/paths';
import type { ProfileStore } from '../config/profiles';
import type { OutputFormat } from '../output/format';

export interface Settings {
  format: OutputFormat;
  /** True when -o or PAYCTL_OUTPUT chose the format (not the TTY default). */
  formatChosen: boolean;
  /** Where the format came from: an --out file's extension overrides only the environment's choice. */
  formatSource?: 'flag' | 'env' | 'default';
  /** True when --tz or PAYCTL_TZ named the zone (summaries say when the machine's default was used). */
  tzChosen?: boolean;
  fields?: string[];
  tz: string;
  yes: boolean;
  dryRun: boolean;
  debug: boolean;
  timeoutMs: number;
  sandbox: boolean;
  /** -p, else PAYCTL_PROFILE: the stored profile to use (else the default one). */
  profile?: string;
  /** --base-url. */
  baseUrl?: string;
  /** PAYCTL_BASE_URL: ad-hoc credentials' base URL, and an override of a profile's after --base-url. */
  baseUrlEnv?: string;
  /**
   * PAYCTL_KEY_ID and PAYCTL_KEY_SECRET (an empty one is unset): both together are ad-hoc credentials
   * that win over stored ones; the secret alone is what `profile add` stores when not asked for.
   */
  keyEnv: { keyId?: string; keySecret?: string };
  /** PAYCTL_MAX_RETRIES as given, checked when a request is to be made. */
  maxRetries?: string;
  /** PAYCTL_WEBHOOK_SECRET: the secret `webhooks verify` checks with when no --secret-file is given. */
  webhookSecretEnv?: string;
  /**
   * Notices of a discontinued product: off with PAYCTL_NO_NOTICES (other than 0); shown once per
   * terminal session, which `terminal` (TERM_SESSION_ID, WT_SESSION or TMUX_PANE) names where /proc does not.
   */
  notices: { enabled: boolean; terminal?: string };
  /** Where config, data and state live (PAYCTL_HOME, XDG_*_HOME, HOME). */
  paths: PayctlPaths;
  /** The environment a command payctl runs itself (a secret manager) starts with. */
  childEnv: NodeJS.ProcessEnv;
  /** --out: a command's result goes to this file (atomically) instead of stdout. */
  out?: string;
  /** Proxies (HTTPS_PROXY, HTTP_PROXY, NO_PROXY) and PAYCTL_CA_FILE. */
  network?: NetworkSettings;
  /** Tables: the terminal's width (undefined: no limit), --wide, colour (TTY, NO_COLOR, FORCE_COLOR, --no-color). */
  table: { width?: number; wide: boolean; color: boolean; stderrColor: boolean };
}

export interface IO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** An in-process caller's Ctrl-C (tests): aborting it stops the run as SIGINT stops a process. */
  interrupt?: AbortSignal;
}

export interface ApiOptions {
  /**
   * Requests already sent run to their answer even after SIGINT (a bulk run must learn every
   * outcome it started); only waiting between retries is still cut short by a second signal's exit.
   */
  uninterruptible?: boolean;
  /** Connections in the pool (bulk runs size it to their concurrency). */
  connections?: number;
}

/** An earlier refund of a payment whose outcome its caller holds as unknown (payctl mcp's audit log). */
export interface UnknownRefund {
  key: string;
  amount: number;
  sentAtMs?: number;
}

/** A caller that plans writes for someone else (payctl mcp): what it knows beyond the service. */
export interface Caller {
  /** An earlier refund of this payment with no known outcome on its record, if any. */
  unknownRefund(paymentId: string): UnknownRefund | undefined;
  /** The amount an earlier refund of this payment under `key` asked for, whatever its outcome, if any. */
  keyedRefund(paymentId: string, key: string): number | undefined;
  /** How this caller's user runs the command `words` with these arguments, by their CLI names (`id`, `amount`). */
  command(words: string[], args: Record<string, string>): string;
}

/** What a handler may use. Handlers return data; they never print results, read argv or exit. */
export interface Context {
  settings: Settings;
  io: IO;
  paths: PayctlPaths;
  signal: AbortSignal;
  /** Milliseconds since the epoch (Date.now), injectable for tests. */
  nowMs(): number;
  /** The client for the active credentials, or for the named profile. */
  api(profile?: string, opts?: ApiOptions): Promise<ApiClient>;
  credentials(profile?: string): Promise<Credentials>;
  profiles(): Promise<ProfileStore>;
  /** One line on stderr. */
  notice(message: string): void;
  /**
   * Asks on a TTY; without one it needs --yes (exit 2 otherwise, checked before the question is
   * built, so a lazy question that fetches data sends nothing). Resolves only when confirmed.
   */
  confirm(question: string | (() => Promise<string>)): Promise<void>;
  /** Reads all of stdin (for --key-secret-stdin, --input -). */
  readStdin(): Promise<string>;
  /** Set when the handler plans for a caller other than the person at the CLI (payctl mcp). */
  caller?: Caller;
}
