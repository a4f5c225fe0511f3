import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx } from './exports-workbook';
import type { Sheet } from './exports-workbook';
import { needs } from '../tools';

/**
 * The package as a user gets it: `npm pack` from a checkout with no dist/ (prepack must build), the
 * tarball installed globally into a temporary prefix, and `payctl` run through the bin npm links,
 * shebang and all, on whichever Node is first on PATH (CI runs this on 22 and on 24).
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'payctl-pack-'));
const prefix = join(work, 'prefix');
const home = join(work, 'home');
const bin = join(prefix, 'bin', 'payctl');
// npm reads no user config and none of the settings `npm test` passes down, so neither this machine's
// npm set-up nor the outer npm can add warnings to what is checked.
const npmEnv: NodeJS.ProcessEnv = {};
for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|PAYCTL_)/i.test(k)) npmEnv[k] = v;
Object.assign(npmEnv, {
  npm_config_userconfig: join(work, 'npmrc'),
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
});
const pathWithNode = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
let tarball = '';
let installOutput = '';
let installMs = 0;

function payctl(args: string[], input = '') {
  const res = spawnSync(bin, args, {
    input,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: pathWithNode, HOME: home, PAYCTL_HOME: home, PAYCTL_TZ: 'Asia/Kolkata', TMPDIR: tmpdir() },
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr, signal: res.signal };
}

beforeAll(() => {
  writeFileSync(join(work, 'npmrc'), '');
  mkdirSync(home, { recursive: true });
  // A checkout as a clone has it: tracked files only, no dist/ (node_modules linked, as `npm ci` made it).
  const checkout = join(work, 'checkout');
  const tracked = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  for (const file of tracked) {
    if (!existsSync(join(ROOT, file))) continue;
    mkdirSync(dirname(join(checkout, file)), { recursive: true });
    cpSync(join(ROOT, file), join(checkout, file));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
  expect(existsSync(join(checkout, 'dist'))).toBe(false);
  const packed = execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: checkout,
    env: { ...npmEnv, PATH: pathWithNode },
    encoding: 'utf8',
  });
  const info = JSON.parse(packed.slice(packed.indexOf('['))) as Array<{ filename: string }>;
  tarball = join(work, info[0]!.filename);
  const started = Date.now();
  const install = spawnSync(
    'npm',
    ['install', '--global', '--prefix', prefix, '--prefer-offline', '--foreground-scripts', tarball],
    {
      env: { ...npmEnv, PATH: pathWithNode },
      encoding: 'utf8',
    },
  );
  installMs = Date.now() - started;
  installOutput = `${install.stdout}${install.stderr}`;
  expect(install.status, installOutput).toBe(0);
}, 240_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed package, installed', () => {
  it('carries the built tool and no build metadata, and installs without compiling or warning', () => {
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(listing).toContain('package/dist/cli.cjs');
    expect(listing).toContain('package/bin/payctl.js');
    expect(listing.filter((f) => /\.map$|meta\.json$|\/src\/|\/test\//.test(f))).toEqual([]);
    expect(installOutput).not.toMatch(/gyp|prebuild|node-pre-gyp|allowScripts|\bwarn\b/i);
    expect(installMs).toBeLessThan(120_000); // generous: the point is "no compile step", measured in README
    const root = join(prefix, 'lib', 'node_modules');
    const compiled = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? compiled(join(dir, e.name)) : e.name.endsWith('.node') ? [join(dir, e.name)] : [],
      );
    expect(compiled(root)).toEqual([]);
    // The MCP server's SDK and ajv (a file of their own, read only by `payctl mcp`) included.
    expect(statSync(tarball).size).toBeLessThan(600_000);
  });

  it('answers --version and --help through its own bin', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const version = payctl(['--version']);
    expect(version).toMatchObject({ code: 0, stderr: '' });
    expect(version.stdout.trim()).toBe(pkg.version);
    const help = payctl(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('payments');
    expect(help.stderr).toBe('');
  });

  // The machine's own Node (20 on this machine kind) is too old: one line, exit 1, no stack trace.
  const oldNode = ['/usr/bin/node', '/usr/local/bin/node'].find(
    (p) => existsSync(p) && Number(execFileSync(p, ['-p', 'process.versions.node.split(".")[0]']).toString()) < 22,
  );
  it.skipIf(!oldNode)('on a Node older than 22 says which Node it needs, in one line', () => {
    const res = spawnSync(oldNode!, [bin, '--version'], { encoding: 'utf8', env: { PATH: '', HOME: home } });
    expect(res.status).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^payctl: needs Node 22\.22 or 24\.15 or later; this is Node \d+\.\d+\.\d+\. [^\n]+\n$/);
    // ...and where to get a payctl that needs no Node at all.
    expect(res.stderr).toMatch(/single executable, which needs no Node: `npm run build:exe` in a clone/);
  });

  it("leaves `npm pack`'s tarball out of git's view in a checkout", () => {
    const name = tarball.split('/').at(-1)!;
    const ignored = spawnSync('git', ['check-ignore', '-q', name], { cwd: ROOT });
    expect(ignored.status, `${name} is not ignored by .gitignore`).toBe(0);
  });

  // npm links package.json's `man` pages into PREFIX/share/man/man1: `man payctl-payments-refund` works.
  it('installs a man page for payctl and for each command', () => {
    needs('man');
    // man reads no time; libfaketime (scripts/any-day.sh) breaks its sandboxed helpers, so it runs without.
    const { LD_PRELOAD: _moved, ...unmoved } = process.env;
    const env = {
      ...unmoved,
      MANPATH: join(prefix, 'share', 'man'),
      MANWIDTH: '80',
      MANPAGER: 'cat',
      PAGER: 'cat',
    };
    for (const page of ['payctl', 'payctl-payments-refund', 'payctl-orders-list']) {
      const where = spawnSync('man', ['-w', page], { env, encoding: 'utf8' });
      expect(where.status, `${page}: ${where.stderr}`).toBe(0);
      expect(where.stdout.trim()).toBe(join(prefix, 'lib', 'node_modules', 'payctl', 'man', `${page}.1`));
    }
    const refund = spawnSync('man', ['payctl-payments-refund'], { env, encoding: 'utf8' });
    expect(refund.status, refund.stderr).toBe(0);
    expect(refund.stdout).toMatch(/^NAME\n\s+payctl-payments-refund - refund a captured payment/m);
    expect(refund.stdout).toContain('--idempotency-key');
    const payctlPage = spawnSync('man', ['payctl'], { env, encoding: 'utf8' });
    expect(payctlPage.stdout).toMatch(/^EXIT STATUS$/m);
    expect(payctlPage.stdout).toMatch(/^ENVIRONMENT$/m);
  });

  it('runs the sandbox story again and again: seed, bulk capture from stdin, CSV export, stats', () => {
    for (let i = 0; i < 5; i++) {
      const seed = payctl(['--sandbox', 'sandbox', 'seed', '6', '-o', 'json']);
      expect(seed, seed.stderr).toMatchObject({ code: 0, signal: null });
      expect(seed.stderr).not.toMatch(/ExperimentalWarning|Assertion/);
      const stats = payctl(['--sandbox', 'sandbox', 'stats', '-o', 'json']);
      expect(stats, stats.stderr).toMatchObject({ code: 0, signal: null });
    }
    const listed = payctl(['--sandbox', 'payments', 'list', '--status', 'authorized', '--all', '-o', 'json']);
    expect(listed.code, listed.stderr).toBe(0);
    const ids = (JSON.parse(listed.stdout) as Array<{ id: string }>).map((p) => p.id);
    expect(ids.length).toBeGreaterThan(0);
    const captured = payctl(
      ['--sandbox', 'payments', 'capture', '--input', '-', '--yes', '-o', 'ndjson'],
      `${ids.join('\n')}\n`,
    );
    expect(captured.code, captured.stderr).toBe(0);
    const rows = captured.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { result: string });
    expect(rows).toHaveLength(ids.length);
    expect(rows.every((r) => r.result === 'done')).toBe(true);
    const out = join(work, 'orders.csv');
    const exported = payctl(['--sandbox', 'orders', 'list', '--all', '-o', 'csv', '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const csv = readFileSync(out, 'utf8').trim().split('\n');
    expect(csv[0]).toMatch(/^id,/);
    expect(csv.length).toBeGreaterThan(30);
    expect(exported.stderr).not.toMatch(/ExperimentalWarning/);
    // The xlsx writer is payctl's own (no runtime dependency): a workbook of the same rows, no warning.
    const book = join(work, 'orders.xlsx');
    const workbook = payctl(['--sandbox', 'orders', 'list', '--all', '--out', book]);
    expect(workbook.code, workbook.stderr).toBe(0);
    expect(workbook.stderr).not.toMatch(/warning/i);
    const read = readXlsx(book) as unknown as { sheets: string[]; Orders: Sheet };
    expect(read.sheets).toEqual(['Orders', 'Summary']);
    expect(read.Orders.rows).toHaveLength(csv.length);
  });
});
