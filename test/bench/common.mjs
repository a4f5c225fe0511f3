/* global fetch, performance */
// What every bench group of test/bench/run.mjs shares on one Node line: its arguments, its PAYCTL_HOME
// and environment, the target rows it reports, timing and memory of one run, and a sandbox to run against.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { flag } from './args.mjs';

export { args, flag } from './args.mjs';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/payctl.js', import.meta.url));
const RSS = fileURLToPath(new URL('./peak-rss.cjs', import.meta.url));
export const N = Number(flag('n', 1000));
export const ROUNDS = Number(flag('rounds', 3));
export const CONCURRENCY = 16;
export const home = mkdtempSync(join(tmpdir(), 'payctl-bench-'));
export const env = { ...process.env, PAYCTL_HOME: home };
for (const k of Object.keys(env)) if (k.startsWith('PAYCTL_') && k !== 'PAYCTL_HOME') delete env[k];
delete env.BENCH_LINE_RESULTS;
delete env.BENCH_EXE;

/** Each target's ratio on this line, for the side-by-side table the parent run prints. */
export const targetRows = [];
/** Records a target: `value` against `limit` (at most, or at least); its verdict for the line printed here. */
export function target(name, value, limit, { atLeast = false, cpu, wall, percent = false } = {}) {
  const met = atLeast ? value >= limit : value <= limit;
  targetRows.push({ name, value, limit, atLeast, cpu, wall, percent, met });
  return verdict(met);
}

export const verdict = (met) => (met ? ': met' : ': MISSED');
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const ms = (t) => `${t.toFixed(0)} ms`;

export function timeSync(cmd, argv, opts = {}) {
  const t = performance.now();
  const r = spawnSync(cmd, argv, { env, stdio: ['pipe', 'ignore', 'pipe'], ...opts });
  const elapsed = performance.now() - t;
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} failed (${r.status}): ${r.stderr}`);
  return elapsed;
}

/** Wall time and peak memory (MiB) of one run; the preload reports memory for every contender alike. */
export function measure(argv, extraEnv = {}, { asInstalled = false } = {}) {
  const rssFile = join(home, 'rss.txt');
  writeFileSync(rssFile, '');
  const runEnv = { ...env, ...extraEnv, BENCH_RSS_FILE: rssFile };
  // As installed, payctl runs through its shebang (any V8 flags there); the preload then comes by NODE_OPTIONS.
  const ms = asInstalled
    ? timeSync(argv[0], argv.slice(1), { env: { ...runEnv, NODE_OPTIONS: `--require ${RSS}` } })
    : timeSync(process.execPath, ['--require', RSS, ...argv], { env: runEnv });
  const [kib, cpuMicros] = readFileSync(rssFile, 'utf8').trim().split(' ').map(Number);
  return { ms, mib: kib / 1024, cpu: cpuMicros / 1000 };
}

export async function sandbox() {
  const child = spawn(
    process.execPath,
    [BIN, 'sandbox', 'start', '--port', '0', '--db', join(home, 'bench.db'), '-o', 'json'],
    { env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  const info = JSON.parse(line);
  const auth = 'Basic ' + Buffer.from(`${info.key_id}:${info.key_secret}`).toString('base64');
  const origin = new URL(info.base_url).origin;
  const admin = async (path, body) => {
    const res = await fetch(`${origin}/_sandbox${path}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    return res.json();
  };
  return { info, admin, stop: () => child.kill('SIGTERM') };
}

export function timeAsync(fn) {
  const t = performance.now();
  return fn().then(() => performance.now() - t);
}

export function runChild(cmd, argv, opts) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { env: opts.env ?? env, stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}: ${err.slice(0, 500)}`)),
    );
    child.stdin.end(opts.input ?? '');
  });
}
