import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
// Concurrent writers are processes here: the store's lock is held between processes.
import { BIN, runProcess as run } from './harness';

const home = mkdtempSync(join(tmpdir(), 'payctl-profiles-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const env = { PAYCTL_HOME: home };

const add = (name: string) =>
  run(
    [
      'profile',
      'add',
      name,
      '--key-id',
      `rzp_test_${name}`,
      '--base-url',
      'https://api.example.com/v1',
      '--key-secret-stdin',
    ],
    {
      env,
      input: `secret-of-${name}`,
      timeoutMs: 90_000,
    },
  );

/** `sandbox start` on the home's default database, which writes the "sandbox" profile; stopped once it has. */
async function sandboxWritingItsProfile(): Promise<void> {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', '-o', 'json'], {
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PAYCTL_'))),
      PAYCTL_HOME: home,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', () => resolve());
    child.once('exit', (code) => reject(new Error(`sandbox exited early (${code})`)));
  });
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

describe('the profile store under concurrent writers', () => {
  it('many concurrent add, use, remove and sandbox start lose no change', async () => {
    for (const name of ['old1', 'old2', 'old3', 'old4', 'keep1', 'keep2']) expect((await add(name)).code).toBe(0);
    const adds = Array.from({ length: 16 }, (_, i) => `new${i}`);
    const results = await Promise.all([
      ...adds.map((name) => add(name)),
      ...['old1', 'old2', 'old3', 'old4'].map((name) => run(['profile', 'remove', name], { env, timeoutMs: 90_000 })),
      run(['profile', 'use', 'keep2'], { env, timeoutMs: 90_000 }),
      sandboxWritingItsProfile().then(() => ({ code: 0, stdout: '', stderr: '' })),
    ]);
    for (const r of results) expect(r.code, r.stderr).toBe(0);

    const list = await run(['profile', 'list', '-o', 'json'], { env });
    expect(list.code, list.stderr).toBe(0);
    const profiles = JSON.parse(list.stdout) as Array<{ name: string; default: boolean }>;
    expect(profiles.map((p) => p.name).sort()).toEqual([...adds, 'keep1', 'keep2', 'sandbox'].sort());
    expect(profiles.find((p) => p.default)?.name).toBe('keep2');
    // Every secret kept, as given; the file still 0600; no lock or temporary file left behind.
    const file = join(home, 'config.json');
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { profiles: Record<string, { key_secret: string }> };
    for (const name of adds) expect(stored.profiles[name]?.key_secret).toBe(`secret-of-${name}`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(home).filter((f) => /\.(lock|tmp|break)$/.test(f))).toEqual([]);
  }, 180_000);
});
