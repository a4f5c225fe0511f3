import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, registerSecret, run } from './harness';

interface StartLine {
  base_url: string;
  origin: string;
  key_id: string;
  key_secret: string;
  webhook_secret: string;
}

const homes: string[] = [];
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));

/** `payctl sandbox start -o json ARGS` under `home`: its JSON line, then it is stopped. */
async function startOnce(home: string, args: string[]): Promise<StartLine> {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', '-o', 'json', ...args], {
    env: { PATH: process.env.PATH, PAYCTL_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited early (${code})`)));
  });
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  const info = JSON.parse(line) as StartLine;
  registerSecret(info.key_secret, info.key_id);
  return info;
}

const sandboxProfile = async (home: string) => {
  const res = await run(['-o', 'json', 'profile', 'list'], { env: { PAYCTL_HOME: home } });
  return (JSON.parse(res.stdout || '[]') as Array<{ name: string; base_url: string }>).find(
    (p) => p.name === 'sandbox',
  );
};

describe('sandbox start', () => {
  it('prints base_url and origin (the official SDK adds /v1 to the origin itself)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'payctl-start-'));
    homes.push(home);
    const info = await startOnce(home, ['--db', ':memory:']);
    expect(info.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.base_url).toBe(`${info.origin}/v1`);
    expect(info.webhook_secret).toMatch(/^whsec_/);
  });

  it('a throwaway instance (:memory: or another file) leaves the "sandbox" profile alone; the default database writes it', async () => {
    const home = mkdtempSync(join(tmpdir(), 'payctl-start-'));
    homes.push(home);
    await startOnce(home, ['--db', ':memory:']);
    expect(await sandboxProfile(home)).toBeUndefined();
    const mine = await startOnce(home, []);
    expect((await sandboxProfile(home))?.base_url).toBe(mine.base_url);
    await startOnce(home, ['--db', ':memory:']);
    await startOnce(home, ['--db', join(home, 'other.db')]);
    expect((await sandboxProfile(home))?.base_url).toBe(mine.base_url);
    expect(statSync(join(home, 'sandbox.db')).mode & 0o077).toBe(0);
  });

  it('keeps the webhook secret in the database: generated once, replaced only by --webhook-secret', async () => {
    const home = mkdtempSync(join(tmpdir(), 'payctl-start-'));
    homes.push(home);
    const db = join(home, 'hooks.db');
    const first = await startOnce(home, ['--db', db]);
    expect((await startOnce(home, ['--db', db])).webhook_secret).toBe(first.webhook_secret);
    expect((await startOnce(home, ['--db', db, '--webhook-secret', 'my-own-secret-1'])).webhook_secret).toBe(
      'my-own-secret-1',
    );
    expect((await startOnce(home, ['--db', db])).webhook_secret).toBe('my-own-secret-1');
    const bad = await run(['sandbox', 'start', '--port', '0', '--db', ':memory:', '--webhook-secret', 'short'], {
      env: { PAYCTL_HOME: home },
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--webhook-secret');
  });
});
