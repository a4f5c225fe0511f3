import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { needsFile } from '../tools';
import { clockEnv, startSandboxProcess } from './harness';
import { readXlsx, sheetRows } from './exports-workbook';
import type { Sheet } from './exports-workbook';

/**
 * The single executable (`npm run build:exe`) as a person without Node runs it: PATH has no `node`
 * (nor anything else), a fresh home; README's sandbox story, the sandbox's SQLite store included.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXE = join(ROOT, 'build', `payctl-${process.platform}-${process.arch}`);
const work = mkdtempSync(join(tmpdir(), 'payctl-exe-'));
const empty = mkdtempSync(join(tmpdir(), 'payctl-exe-path-'));
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
});

function exe(args: string[], env: Record<string, string> = {}, input?: string) {
  const res = spawnSync(EXE, args, {
    encoding: 'utf8',
    timeout: 60_000,
    input,
    env: {
      ...clockEnv(),
      PATH: empty,
      HOME: work,
      PAYCTL_HOME: join(work, 'payctl'),
      PAYCTL_TZ: 'Asia/Kolkata',
      ...env,
    },
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr, error: res.error };
}

describe('the single executable, with no node on PATH', () => {
  it('answers --version, seeds the sandbox, lists its orders and writes a workbook', () => {
    needsFile(EXE, 'npm run build:exe');
    expect(statSync(EXE).mode & 0o111).not.toBe(0);
    expect(spawnSync('sh', ['-c', 'command -v node'], { env: { PATH: empty } }).status).not.toBe(0);

    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(exe(['--version'])).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    // The helps the npm build bakes are baked in here too, and Node says nothing of its code cache.
    const help = exe(['orders', '--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: payctl orders /);

    const seed = exe(['--sandbox', 'sandbox', 'seed', '3']);
    expect(seed.code, seed.stderr).toBe(0);
    const seeded = seed.stdout.trim().split('\n');
    expect(seeded).toHaveLength(3);
    expect(seeded.every((id) => /^order_\w+$/.test(id))).toBe(true);

    // The seed makes its orders and, around them, subscriptions whose charges are orders too.
    const list = exe(['--sandbox', 'orders', 'list', '--all', '-o', 'json']);
    expect(list.code, list.stderr).toBe(0);
    const orders = JSON.parse(list.stdout) as Array<{ id: string; amount: number }>;
    expect(orders.map((o) => o.id)).toEqual(expect.arrayContaining(seeded));
    const table = exe(['--sandbox', 'orders', 'list', '-o', 'table']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^id\s+status\s+amount/);

    // The xlsx writer is inside the file too, and warns about nothing: a workbook of those orders.
    const book = exe(['--sandbox', 'orders', 'list', '--all', '--out', join(work, 'orders.xlsx')]);
    expect(book.code, book.stderr).toBe(0);
    expect(book.stderr).toMatch(new RegExp(`wrote ${orders.length} rows`));
    expect(book.stderr).not.toMatch(/warning/i);
    const read = readXlsx(join(work, 'orders.xlsx'));
    expect(read.sheets).toEqual(['Orders', 'Summary']);
    expect(
      sheetRows(read.Orders as Sheet)
        .map((r) => String(r.id!.v))
        .sort(),
    ).toEqual(orders.map((o) => o.id).sort());
  });

  // A call to the service through the executable: its HTTP layer, the profile file, argv and the
  // environment, all read at run time.
  it('gets a payment with credentials from the environment and from a stored profile', async () => {
    needsFile(EXE, 'npm run build:exe');
    // A sandbox process of its own: this test waits on the executable synchronously.
    const sb = await startSandboxProcess();
    try {
      const {
        payment_ids: [id],
      } = await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 1 });
      const keys = { PAYCTL_BASE_URL: sb.baseUrl, PAYCTL_KEY_ID: sb.keyId, PAYCTL_KEY_SECRET: sb.keySecret };
      const fromEnv = exe(['payments', 'get', id!, '-o', 'json'], keys);
      expect(fromEnv.code, fromEnv.stderr).toBe(0);
      expect(JSON.parse(fromEnv.stdout)).toMatchObject({ id, status: 'authorized', amount: 50000 });

      const add = ['profile', 'add', 'support', '--key-id', sb.keyId, '--base-url', sb.baseUrl, '--key-secret-stdin'];
      const added = exe(add, {}, sb.keySecret);
      expect(added.code, added.stderr).toBe(0);
      const fromProfile = exe(['-p', 'support', 'payments', 'get', id!, '-o', 'table']);
      expect(fromProfile.code, fromProfile.stderr).toBe(0);
      // The program past the entry is an asset of the executable, compiled with a code cache of the
      // command's own (made by its first run in this home, read by the second, as in the npm package).
      const caches = readdirSync(join(work, '.cache', 'payctl'));
      expect(caches, caches.join(' ')).toContainEqual(
        expect.stringMatching(/^exe-v[\d.]+-\w+-(\d+-){2}payments-get\.cache$/),
      );
      expect(fromProfile.stderr).toBe('');

      // `payctl mcp` loads the MCP SDK, another asset: an assistant's first two requests are answered.
      const rpc = (id: number, method: string, params?: object) =>
        JSON.stringify({ jsonrpc: '2.0', id, method, params });
      const hello = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'exe-test', version: '1' } };
      const mcp = exe(
        ['-p', 'support', 'mcp'],
        {},
        [rpc(1, 'initialize', hello), rpc(2, 'tools/list')].join('\n') + '\n',
      );
      const answers = mcp.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { id: number; result: { tools?: { name: string }[] } });
      expect(
        answers.map((a) => a.id),
        mcp.stderr,
      ).toEqual([1, 2]);
      expect(answers[1]!.result.tools!.map((t) => t.name)).toContain('payments_get');
      expect(fromProfile.stdout).toMatch(new RegExp(`^id\\s+${id}$`, 'm'));
      expect(fromProfile.stdout).toMatch(/^status\s+authorized$/m);
    } finally {
      await sb.stop();
    }
  });
});
