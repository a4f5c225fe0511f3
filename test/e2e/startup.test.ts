import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluatedBy } from './evaluated';
import { BIN } from './harness';

const SIGNALS = fileURLToPath(new URL('./fixtures/signal-listeners.mjs', import.meta.url));
const HEAVY = [
  'node:http',
  'node:crypto',
  'zod',
  '@inquirer',
  'src/sandbox/store',
  'node:sqlite',
  'cli-table3',
  'node_modules/conf/',
  'luxon',
  'src/output/csv',
  'src/sandbox/',
  'src/client/',
  // The MCP server and its SDK load only for `payctl mcp`.
  '@modelcontextprotocol',
  'src/agent/serve',
  'src/agent/derive',
  // The reads by many ids, the notes edits and the list filters load only when their command runs.
  'src/commands/fetch-many',
  'src/bulk/id-input',
  'src/commands/notes-edit',
  'src/commands/payments/filters',
];

/** A service that is never called (the commands below are dry runs, or serve on stdio). */
const CALL_ENV = {
  PAYCTL_BASE_URL: 'http://127.0.0.1:9/v1',
  PAYCTL_KEY_ID: 'rzp_test_trace',
  PAYCTL_KEY_SECRET: 'not-used',
};
const heavyIn = (loaded: string[]) => HEAVY.filter((h) => loaded.some((f) => f.includes(h)));

describe('startup loads only what the command needs', () => {
  it('--version loads neither the command tree nor anything heavy', () => {
    const loaded = evaluatedBy(['--version']);
    expect(loaded).toContain('src/version.ts');
    expect(loaded.filter((f) => f.includes('commander'))).toEqual([]);
    expect(heavyIn(loaded)).toEqual([]);
  });

  it.each([
    [['--help']],
    [['-h']],
    [['payments', '--help']],
    [['orders', '-h']],
    [['help', 'wallet']],
    [['mcp', '--help']],
  ])('%j prints the help the build baked in: no commander, no command declarations', (flags) => {
    const loaded = evaluatedBy(flags);
    expect(loaded).toContain('src/cli/baked-help.ts');
    expect(loaded.filter((f) => f.includes('commander') || f.startsWith('src/commands/'))).toEqual([]);
    expect(heavyIn(loaded)).toEqual([]);
    expect(loaded).not.toContain('node:child_process');
    // With `--` after it, the help goes through commander, with the same command tree: the same text.
    const env = { ...process.env, PAYCTL_HOME: mkdtempSync(join(tmpdir(), 'payctl-help-')) };
    const asked = flags[0] === 'help' ? [flags[1]!, '--help'] : [flags[0]!, '--help'];
    const [fast, full] = [flags, [...asked.filter((a) => a !== '-h' && a !== '--help'), '--help', '--']].map((args) =>
      spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8' }),
    );
    rmSync(env.PAYCTL_HOME, { recursive: true, force: true });
    expect([fast!.status, fast!.stderr]).toEqual([0, '']);
    expect(fast!.stdout).toMatch(/^Usage: payctl /);
    if (flags.length === 1) expect(fast!.stdout).toContain('Help topics (payctl help TOPIC):');
    expect(fast!.stdout).toBe(full!.stdout);
  });

  it.each([
    [['help']],
    [['payments', '--help', '--']],
    [['help', 'wallet', 'statement']],
    [['orders', 'payments', '--help']],
    [['refunds', 'edit', '--help']],
    [['payments', 'get', '--help']],
  ])('%j loads the command tree and no HTTP, validation, prompt, table or sqlite code', (args) => {
    const loaded = evaluatedBy(args);
    expect(loaded.some((f) => f.includes('commander'))).toBe(true);
    expect(heavyIn(loaded)).toEqual([]);
  });

  it('the check sees bundled code: a command that calls the service loads the HTTP layer and zod', () => {
    const loaded = evaluatedBy(['payments', 'get', 'pay_00000000000001', '--dry-run', '-o', 'json'], CALL_ENV);
    expect(heavyIn(loaded)).toEqual(expect.arrayContaining(['node:http', 'zod', 'src/client/']));
    // Nor the built-ins it does not use: hashing, TLS for a plain-http service, child processes.
    expect(loaded.filter((f) => ['node:crypto', 'node:https', 'node:tls', 'node:http2'].includes(f))).toEqual([]);
    expect(heavyIn(loaded)).not.toContain('src/sandbox/store');
    expect(heavyIn(loaded)).not.toContain('luxon');
    expect(loaded.filter((f) => f.includes('@modelcontextprotocol') || f.startsWith('src/agent/serve'))).toEqual([]);
  });

  it('the check sees the MCP SDK: `payctl mcp` loads it, from its own file', () => {
    const loaded = evaluatedBy(['mcp'], CALL_ENV);
    expect(loaded).toEqual(expect.arrayContaining(['dist/mcp-sdk.cjs', 'src/agent/serve.ts']));
    expect(loaded.some((f) => f.startsWith('node_modules/@modelcontextprotocol/sdk/dist/esm/server/'))).toBe(true);
  });

  it('a read of many ids loads its own module, and a notes edit its own, each only for its command', () => {
    const env = CALL_ENV;
    const many = heavyIn(
      evaluatedBy(['refunds', 'get', 'rfnd_00000000000001', 'rfnd_00000000000002', '--dry-run'], env),
    );
    expect(many).toEqual(expect.arrayContaining(['src/commands/fetch-many', 'src/bulk/id-input']));
    expect(many).not.toContain('src/commands/notes-edit');
    const edit = heavyIn(evaluatedBy(['orders', 'edit', 'order_00000000000001', '--note', 'a=1', '--dry-run'], env));
    expect(edit).toContain('src/commands/notes-edit');
    expect(edit).not.toContain('src/commands/fetch-many');
  });
});

/**
 * A dependency that listens for SIGINT when it loads (as conf's did, sending it again "to exit cleanly")
 * would turn one Ctrl-C into two: every command that reads profiles ends with payctl's listeners only.
 */
describe('signals belong to payctl', () => {
  it.each([
    [['profile', 'list']],
    [['profile', 'show', 'main']],
    [['-p', 'main', 'payments', 'get', 'pay_00000000000001', '--dry-run']],
  ])("%j ends with only payctl's own SIGINT and SIGTERM listeners", (args) => {
    const dir = mkdtempSync(join(tmpdir(), 'payctl-signals-'));
    const trace = join(dir, 'signals.json');
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, PAYCTL_HOME: dir, PAYCTL_SIGNAL_TRACE: trace };
      for (const k of ['PAYCTL_BASE_URL', 'PAYCTL_KEY_ID', 'PAYCTL_KEY_SECRET', 'PAYCTL_PROFILE']) delete env[k];
      const add = spawnSync(
        process.execPath,
        [
          BIN,
          'profile',
          'add',
          'main',
          '--key-id',
          'rzp_test_signals',
          '--base-url',
          'http://127.0.0.1:9/v1',
          '--key-secret-stdin',
        ],
        { env, input: 'not-a-real-secret', encoding: 'utf8' },
      );
      expect(add.status, add.stderr).toBe(0);
      rmSync(trace, { force: true });
      const res = spawnSync(process.execPath, ['--import', SIGNALS, BIN, ...args], { env, encoding: 'utf8' });
      expect(res.status, res.stderr).toBe(0);
      expect(JSON.parse(readFileSync(trace, 'utf8'))).toEqual({ SIGINT: 1, SIGTERM: 1, SIGHUP: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
