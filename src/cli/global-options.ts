/**
 * The options every command takes, as plain data: the program declares them (./program), and the entry
 * reads which take a value to find the command being run before commander loads (its code cache is the
 * command's own, ./load-run).
 */
export const GLOBAL_OPTIONS: readonly { flags: string; description: string; choices?: readonly string[] }[] = [
  { flags: '-p, --profile <name>', description: 'key profile to use (env PAYCTL_PROFILE)' },
  {
    flags: '--base-url <url>',
    description: "override the profile's base URL, https only except loopback (env PAYCTL_BASE_URL)",
  },
  {
    flags: '-o, --output <format>',
    description: 'default table on a terminal, json otherwise (env PAYCTL_OUTPUT)',
    choices: ['table', 'json', 'ndjson', 'csv'],
  },
  {
    flags: '--out <file>',
    description:
      'write the result to FILE atomically (0600) instead of stdout; lists walk every page unless --limit, ' +
      'in the format of the extension: .csv .json .ndjson/.jsonl .xlsx',
  },
  { flags: '--fields <list>', description: 'comma-separated fields/columns, dot paths allowed (notes.reason)' },
  { flags: '-y, --yes', description: 'skip confirmations (required for money movement without a terminal)' },
  { flags: '--dry-run', description: 'validate and print the request(s) that would be sent; send nothing' },
  { flags: '--debug', description: 'HTTP trace on stderr (credentials redacted)' },
  {
    flags: '--timeout <seconds>',
    description: 'deadline of each attempt, connect to last byte, in seconds (default 30)',
  },
  { flags: '--tz <zone>', description: 'IANA time zone for reading and showing times (default: local; env PAYCTL_TZ)' },
  { flags: '--sandbox', description: 'run against the embedded local sandbox (no profile needed)' },
  { flags: '--no-color', description: 'no colours (also NO_COLOR; FORCE_COLOR forces them)' },
  { flags: '--wide', description: 'tables: show every column instead of fitting the terminal width' },
];

/** The global options' flags that take a value (`-p`, `--profile`, …). */
const TAKE_VALUE = new Set(
  GLOBAL_OPTIONS.filter((o) => o.flags.includes('<')).flatMap((o) =>
    o.flags.split(/[ ,]+/).filter((w) => w.startsWith('-')),
  ),
);

/**
 * The words that name the command being run, group then verb (`payments get`): the arguments that are
 * not options, global options' values skipped, the first two of them. After `--`, every word is one.
 */
export function commandWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const arg = argv[i]!;
    if (arg === '--') return [...words, ...argv.slice(i + 1)].slice(0, 2);
    if (!arg.startsWith('-')) words.push(arg);
    else if (TAKE_VALUE.has(arg)) i++;
  }
  return words;
}
