import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN } from './harness';

const HOOK = fileURLToPath(new URL('./fixtures/import-trace.mjs', import.meta.url));
const HEAVY = ['undici', 'zod', '@inquirer', 'better-sqlite3', 'cli-table3', 'conf', 'luxon', 'csv-stringify', '/sandbox', '/api/'];

/** Which modules a run loads, from a resolve hook (no timing: this cannot flake). */
function modulesLoadedBy(args: string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'payctl-trace-'));
  const trace = join(dir, 'trace.txt');
  try {
    const res = spawnSync(process.execPath, ['--import', HOOK, BIN, ...args], {
      env: { ...process.env, PAYCTL_IMPORT_TRACE: trace, PAYCTL_HOME: dir },
      encoding: 'utf8',
    });
    expect(res.status, res.stderr).toBe(0);
    return readFileSync(trace, 'utf8').trim().split('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('startup loads only what the command needs', () => {
  it.each([[['--version']], [['--help']], [['payments', '--help']]])('%j loads no HTTP, validation, prompt, table or sqlite code', (args) => {
    const loaded = modulesLoadedBy(args);
    expect(loaded.some((u) => u.includes('commander'))).toBe(true);
    for (const heavy of HEAVY) expect(loaded.filter((u) => u.includes(heavy)), heavy).toEqual([]);
  });
});
