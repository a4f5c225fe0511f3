// Benchmarks, each measured side by side in one run, reported as ratios (never as a pass/fail time).
//   node test/bench/run.mjs [--node 24|22] [--only startup|sandbox|export|bulk|many|team|bank] [--n 1000] [--rounds 3] [--runs 21]
// Without --node it measures on Node 24 (the project's own, node_modules/.bin/node) and then on Node 22
// (fetched on first use into the cache .ci/run uses), each line in a process of its own with that
// Node first on PATH, so payctl's shebang runs on it too; then it prints both lines' ratios side by side.
// Each group is a file of its own beside this one; common.mjs has what they share.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bulk, sandboxThroughput } from './bulk.mjs';
import { BIN, ROOT, args, env, flag, home, sandbox, target, targetRows } from './common.mjs';
import { exports } from './exports.mjs';
import { manyIds } from './many-ids.mjs';
import { loadNow, writeBenchmarksPage } from './report.mjs';
import { startup } from './startup.mjs';
import { bankMatch, teamSandbox } from './team-finance.mjs';

const SELF = fileURLToPath(import.meta.url);
const only = flag('only');
// Set by the parent run for the process that measures one Node line: where its ratios go.
const LINE_RESULTS = process.env.BENCH_LINE_RESULTS;

// The line's own output, kept for docs/benchmarks.md.
const logged = [];
if (LINE_RESULTS) {
  const print = console.log;
  console.log = (...parts) => {
    logged.push(parts.join(' '));
    print(...parts);
  };
}

/** Node 22 from the cache .ci/run fills (its install script fetches the binary, so it must be allowed). */
function node22() {
  const cache =
    process.env.PAYCTL_CI_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'payctl-ci');
  const dir = join(cache, 'node22');
  const node = join(dir, 'node_modules', '.bin', 'node');
  if (!existsSync(node)) {
    console.log(`fetching Node 22 into ${dir} (once)`);
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, 'package.json')))
      writeFileSync(join(dir, 'package.json'), '{ "private": true, "allowScripts": { "node": true } }\n');
    const npm = spawnSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', 'node@22'], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (npm.status !== 0 || !existsSync(node)) throw new Error(`installing Node 22 into ${dir} failed`);
  }
  return node;
}

/** Runs this script once per Node line, that Node first on PATH, and prints the lines' targets side by side. */
function allLines() {
  const lines = flag('node') ? [flag('node')] : ['24', '22'];
  if (lines.some((l) => l !== '24' && l !== '22')) throw new Error(`--node takes 24 or 22, not ${flag('node')}`);
  const i = args.indexOf('--node');
  const rest = i >= 0 ? args.filter((_, j) => j !== i && j !== i + 1) : args;
  const ownNode = join(ROOT, 'node_modules', '.bin', 'node');
  const ownVersion = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'node', 'package.json'), 'utf8')).version;
  const exe = join(ROOT, 'build', `payctl-${process.platform}-${process.arch}`);
  const results = {};
  const started = new Date();
  const load = loadNow();
  for (const line of lines) {
    const node = line === '24' ? ownNode : node22();
    const file = join(home, `line-${line}.json`);
    const lineEnv = {
      ...process.env,
      PATH: `${dirname(node)}${delimiter}${process.env.PATH}`,
      BENCH_LINE_RESULTS: file,
    };
    // The executable carries the Node that built it (the project's own): it is measured on that line.
    if (line === '24' && existsSync(exe)) lineEnv.BENCH_EXE = exe;
    else if (line === '24') console.log(`(no ${exe.slice(ROOT.length)}: run npm run build:exe to measure it)`);
    const r = spawnSync(node, [SELF, ...rest], { stdio: 'inherit', env: lineEnv });
    if (r.status !== 0 || !existsSync(file)) {
      console.log(`Node ${line}: the bench failed (exit ${r.status ?? r.signal})`);
      process.exitCode = 1;
      continue;
    }
    results[line] = JSON.parse(readFileSync(file, 'utf8'));
    if (line === '24' && results[line].node !== ownVersion)
      throw new Error(`Node 24 line ran on ${results[line].node}, not the project's ${ownVersion}`);
  }
  const table = printSideBySide(lines, results);
  const ran = lines.filter((l) => results[l]).map((l) => results[l]);
  if (ran.length) {
    const command = ['node test/bench/run.mjs', ...args].join(' ');
    writeBenchmarksPage(join(ROOT, 'docs', 'benchmarks.md'), { table, lines: ran, command, started, load });
    console.log('\nwritten to docs/benchmarks.md');
  }
}

/** target | Node 24 | Node 22: each line's ratio (CPU ratio beside it where measured) and met or MISSED. */
function printSideBySide(lines, results) {
  const names = [];
  for (const line of lines)
    for (const row of results[line]?.targets ?? []) if (!names.includes(row.name)) names.push(row.name);
  if (!names.length) return [];
  const limitOf = (row) => `${row.atLeast ? '>=' : '<='} ${row.percent ? `${row.limit * 100}%` : `${row.limit}x`}`;
  const cell = (row) => {
    if (!row) return '-';
    const value = row.percent
      ? `${row.value >= 0 ? '+' : ''}${(row.value * 100).toFixed(1)}%`
      : `${row.value.toFixed(2)}x`;
    // Start-up targets are judged on CPU time (wall beside it); the others on wall time (CPU beside it).
    const shown =
      row.wall !== undefined
        ? `CPU ${value} (wall ${row.wall.toFixed(2)}x)`
        : `${value}${row.cpu === undefined ? '' : ` (CPU ${row.cpu.toFixed(2)}x)`}`;
    return `${shown} ${row.met ? 'met' : 'MISSED'}`;
  };
  const header = ['target', 'limit', ...lines.map((l) => `Node ${results[l]?.node ?? l}`)];
  const rows = names.map((name) => {
    const perLine = lines.map((l) => results[l]?.targets.find((r) => r.name === name));
    return [name, limitOf(perLine.find(Boolean)), ...perLine.map(cell)];
  });
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  console.log(`\ntargets side by side (medians as above; each judged on the figure shown first)`);
  for (const r of [header, ...rows])
    console.log(
      `  ${r
        .map((v, c) => v.padEnd(widths[c]))
        .join('  ')
        .trimEnd()}`,
    );
  if (lines.includes('22') && names.some((n) => n.startsWith('exe ')))
    console.log('  (the single executable carries Node 24: it is measured on the Node 24 line only)');
  return [header, ...rows];
}

try {
  if (LINE_RESULTS) {
    console.log(`payctl bench, ${new Date().toISOString().slice(0, 10)}, Node ${process.versions.node}`);
    if (!only || only === 'startup') await startup();
    if (!only || only === 'sandbox') await sandboxThroughput();
    if (!only || only === 'export') await exports();
    if (!only || only === 'bulk') await bulk();
    if (!only || only === 'many') await manyIds({ sandbox, target, BIN, env, home, sample: 20 });
    if (!only || only === 'team') await teamSandbox(target);
    if (!only || only === 'bank') bankMatch();
    writeFileSync(LINE_RESULTS, JSON.stringify({ node: process.versions.node, targets: targetRows, log: logged }));
  } else allLines();
} finally {
  rmSync(home, { recursive: true, force: true });
}
