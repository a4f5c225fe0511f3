/**
 * Every environment variable payctl reads, with what it does. settings.ts, config/paths.ts and the
 * notices read them; `payctl help environment`, the man page and docs/configuration.md print this
 * table, and a unit test fails when the code reads a variable this table does not name.
 */
export interface EnvVariable {
  /** The names, first the one to set (lower-case spellings of proxies are read too). */
  names: readonly string[];
  what: string;
}

export interface EnvGroup {
  title: string;
  variables: readonly EnvVariable[];
}

export const ENVIRONMENT: readonly EnvGroup[] = [
  {
    title: 'Credentials and defaults',
    variables: [
      {
        names: ['PAYCTL_KEY_ID', 'PAYCTL_KEY_SECRET'],
        what: 'an ad-hoc profile for scripts and CI, overriding stored ones (with PAYCTL_BASE_URL for its address)',
      },
      { names: ['PAYCTL_PROFILE'], what: 'default of --profile: the stored profile to use' },
      {
        names: ['PAYCTL_WEBHOOK_SECRET'],
        what: "the webhook secret `webhooks verify` and `doctor` use (else --secret-file, stdin or the sandbox's)",
      },
      { names: ['PAYCTL_BASE_URL'], what: "default of --base-url: overrides the profile's base URL" },
      { names: ['PAYCTL_OUTPUT'], what: 'default of --output: table, json, ndjson or csv' },
      { names: ['PAYCTL_TZ'], what: "default of --tz: the IANA zone times are read and shown in (else the machine's)" },
      {
        names: ['PAYCTL_TIMEOUT'],
        what: 'default of --timeout: seconds per attempt, connect to last byte (default 30)',
      },
      { names: ['PAYCTL_MAX_RETRIES'], what: 'how many times a retryable request is retried (default 6)' },
      {
        names: ['PAYCTL_NO_NOTICES'],
        what:
          'set (other than 0): no product notices on stderr. The wallet commands say the product was ' +
          'discontinued once per terminal session (remembered 12 hours), never when stdout carries -o json, ' +
          'ndjson or csv',
      },
    ],
  },
  {
    title: 'Where payctl keeps things',
    variables: [
      {
        names: ['PAYCTL_HOME'],
        what: 'one directory for config, sandbox database, journals and state (tests and CI use it)',
      },
      {
        names: ['XDG_CONFIG_HOME'],
        what: 'else profiles live in $XDG_CONFIG_HOME/payctl/config.json (default ~/.config/payctl), created 0600',
      },
      {
        names: ['XDG_DATA_HOME'],
        what: 'the sandbox database sandbox.db in $XDG_DATA_HOME/payctl (default ~/.local/share/payctl)',
      },
      {
        names: ['XDG_STATE_HOME'],
        what: 'journals, the MCP audit log and notice state in $XDG_STATE_HOME/payctl (default ~/.local/state/payctl)',
      },
      {
        names: ['XDG_CACHE_HOME'],
        what:
          'the compiled code of the program (a V8 code cache for each command, made by its first run of each build) in ' +
          '$XDG_CACHE_HOME/payctl (default ~/.cache/payctl), 0600 in a 0700 directory; never used where others ' +
          'may write that directory; safe to delete',
      },
      { names: ['HOME'], what: 'the base of the default directories above' },
      {
        names: ['APPDATA', 'LOCALAPPDATA'],
        what: 'on Windows, the config directory (APPDATA\\payctl) and the data and state ones (LOCALAPPDATA\\payctl)',
      },
    ],
  },
  {
    title: 'Network',
    variables: [
      {
        names: ['HTTPS_PROXY', 'https_proxy'],
        what: 'the proxy an https service is reached through, by a CONNECT tunnel (lower case wins)',
      },
      { names: ['HTTP_PROXY', 'http_proxy'], what: 'the proxy when HTTPS_PROXY is not set' },
      {
        names: ['NO_PROXY', 'no_proxy'],
        what: 'hosts reached directly: names (and their subdomains), host:port, addresses, CIDR blocks, or *',
      },
      {
        names: ['PAYCTL_CA_FILE'],
        what: "a PEM file of CAs trusted for the service, in addition to the system's and the profile's --ca-file",
      },
    ],
  },
  {
    title: 'Terminal',
    variables: [
      { names: ['NO_COLOR'], what: 'set: no colours (as --no-color)' },
      { names: ['FORCE_COLOR'], what: 'set (other than 0 or false): colours even into a pipe' },
      { names: ['COLUMNS'], what: 'the width tables fit when stdout is not a terminal' },
      { names: ['TERM'], what: 'dumb: no colours' },
      {
        names: ['TERM_SESSION_ID', 'WT_SESSION', 'TMUX_PANE'],
        what: 'tell terminal sessions apart, so a notice shows once per session',
      },
    ],
  },
];

/** Every name the table documents. */
export const ENVIRONMENT_NAMES: ReadonlySet<string> = new Set(
  ENVIRONMENT.flatMap((group) => group.variables.flatMap((v) => v.names)),
);
