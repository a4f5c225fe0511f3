import type { IO, Settings } from '../commands/context';
import { need } from '../commands/flags';
import { UsageError } from '../contract/errors';
import { localZone, resolveZone } from '../contract/values/zone';
import type { NetworkSettings, ProxyVariable } from '../config/network';
import { payctlPaths } from '../config/paths';
import { parseFields } from '../output/fields';
import { resolveFormat } from '../output/format';
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
    // The one place --profile meets PAYCTL_PROFILE.
    profile: flags.profile ?? env.PAYCTL_PROFILE,
    baseUrl: flags.baseUrl,
    baseUrlEnv: env.PAYCTL_BASE_URL,
    keyEnv: { keyId: env.PAYCTL_KEY_ID || undefined, keySecret: env.PAYCTL_KEY_SECRET || undefined },
    maxRetries: env.PAYCTL_MAX_RETRIES,
    webhookSecretEnv: env.PAYCTL_WEBHOOK_SECRET || undefined,
    notices: {
      enabled: !env.PAYCTL_NO_NOTICES || env.PAYCTL_NO_NOTICES === '0',
      terminal: env.TERM_SESSION_ID ?? env.WT_SESSION ?? env.TMUX_PANE,
    },
    paths: payctlPaths(env),
    childEnv: env,
    out: flags.out,
    network: networkFrom(env),
    table: {
      width: terminalWidth(env, io),
      wide: Boolean(flags.wide),
      color: useColor(flags, env, io.stdoutIsTTY),
      // Asked only when something is painted on stderr: whether it is a terminal loads node:tty.
      get stderrColor() {
        return useColor(flags, env, io.stderrIsTTY);
      },
    },
  };
}

/** The first of the names set (non-empty) in the environment: lower case wins, as curl and undici read them. */
function variable(env: NodeJS.ProcessEnv, ...names: string[]): ProxyVariable | undefined {
  for (const name of names) if (env[name]?.trim()) return { name, value: env[name]! };
  return undefined;
}

/** Proxies and the extra CA, as the environment gives them; checked when a request needs them. */
function networkFrom(env: NodeJS.ProcessEnv): NetworkSettings {
  return {
    httpsProxy: variable(env, 'https_proxy', 'HTTPS_PROXY'),
    httpProxy: variable(env, 'http_proxy', 'HTTP_PROXY'),
    noProxy: variable(env, 'no_proxy', 'NO_PROXY'),
    caFile: env.PAYCTL_CA_FILE?.trim() || undefined,
  };
}

/** --no-color and NO_COLOR always win; FORCE_COLOR (other than 0/false) colours even a pipe; else a terminal does. */
function useColor(flags: GlobalFlags, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
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
