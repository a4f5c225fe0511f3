#!/usr/bin/env node
/**
 * The simulation's proof against the money defects payctl fixed: each defect's fix reverted by a
 * small text patch of src (a mutant), in a scratch copy of the tree (this tree is never touched), and
 * the money simulation run over it. A mutant is found when seeds fail that do not fail (or fail
 * otherwise) on the unmutated copy.
 *
 *   node test/sim/mutants.mjs                      every mutant, 2,000 seeds each, and the baseline
 *   node test/sim/mutants.mjs --seeds 10000 M3     chosen mutants, more seeds
 *   node test/sim/mutants.mjs --replay M3 1234     one seed of one mutant, with its trace
 *   node test/sim/mutants.mjs --list               the mutants and their patches
 *   node test/sim/mutants.mjs --keep DIR M4        also writes each mutant's failing seeds to DIR/M4.json
 *
 * A mutant of the `payctl mcp` rails (`sim: 'mcp'`) runs the mcp simulation (test/sim/mcp.sim.test.ts)
 * instead of the money one, against its own baseline.
 * A patch whose text no longer matches src exactly once stops the script (src moved on: update it).
 * One simulation at a time; each takes what `npx vitest run test/sim/money.sim.test.ts` takes.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

import { MUTANTS } from './mutant-patches.mjs';

export { MUTANTS };

const byId = new Map(MUTANTS.map((m) => [m.id, m]));
const editsOf = (m) => (m.of ? m.edits.map((i) => byId.get(m.of).edits[i]) : m.edits);

function scratchCopy() {
  const dir = mkdtempSync(join(tmpdir(), 'payctl-mutants-'));
  cpSync(root, dir, {
    recursive: true,
    filter: (src) => {
      const rel = relative(root, src);
      return !/^(node_modules|\.git|dist|coverage)(\/|$)/.test(rel);
    },
  });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** Applies a mutant's edits to the copy; returns a function that restores every file it changed. */
function apply(dir, m) {
  const originals = new Map();
  for (const e of editsOf(m)) {
    const path = join(dir, e.file);
    if (!originals.has(path)) originals.set(path, readFileSync(path, 'utf8'));
    const text = readFileSync(path, 'utf8');
    const at = text.indexOf(e.find);
    if (at < 0 || text.indexOf(e.find, at + 1) >= 0)
      throw new Error(`${m.id}: the patch of ${e.file} does not match exactly once (src changed?):\n${e.find}`);
    writeFileSync(path, text.slice(0, at) + e.replace + text.slice(at + e.find.length));
  }
  return () => {
    for (const [path, text] of originals) writeFileSync(path, text);
  };
}

const SIMS = { money: 'test/sim/money.sim.test.ts', mcp: 'test/sim/mcp.sim.test.ts' };

function simulate(dir, env, sim = 'money') {
  const json = join(dir, `sim-${process.hrtime.bigint()}.json`);
  const started = Date.now();
  const r = spawnSync(
    'npx',
    ['vitest', 'run', '--project', 'unit', SIMS[sim], ...(env.SIM_SEED ? [] : ['-t', 'invariants'])],
    { cwd: dir, env: { ...process.env, ...env, SIM_JSON: json }, encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  const out = `${r.stdout}${r.stderr}`;
  const seconds = (Date.now() - started) / 1000;
  const line = /(money|mcp) simulation: \d+ seeds.*/.exec(out)?.[0] ?? '';
  if (!existsSync(json)) return { error: out.slice(-3000), out, seconds };
  const failures = JSON.parse(readFileSync(json, 'utf8'));
  rmSync(json);
  return { failures, out, line, seconds };
}

/** The violations of a failing seed that are not known findings (known.ts): those fail the test. */
const fresh = (f) => f.invariants.map((inv, i) => ({ inv, detail: f.details[i] })).filter((_, i) => !f.known[i]);

function main() {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => {
    const i = args.indexOf(name);
    if (i < 0) return dflt;
    const v = args[i + 1];
    args.splice(i, 2);
    return v;
  };
  if (args.includes('--list')) {
    for (const m of MUTANTS) {
      console.log(`${m.id} (defect ${m.defect}): ${m.what}`);
      for (const e of editsOf(m))
        console.log(
          `  ${e.file}\n  - ${e.find.split('\n').join('\n  - ')}\n  + ${e.replace.split('\n').join('\n  + ')}`,
        );
    }
    return;
  }
  const replay = opt('--replay');
  const seeds = opt('--seeds', '2000');
  const first = opt('--first', '1');
  const keep = opt('--keep'); // a directory: each mutant's failing seeds as JSON (MUTANT.json)
  const dir = scratchCopy();
  try {
    if (replay) {
      const m = byId.get(replay);
      if (!m) throw new Error(`no mutant ${replay}`);
      apply(dir, m);
      const r = simulate(dir, { SIM_SEED: args[0] }, m.sim);
      console.log(r.out);
      return;
    }
    const chosen = args.length
      ? args.map(
          (id) =>
            byId.get(id) ??
            (() => {
              throw new Error(`no mutant ${id}`);
            })(),
        )
      : MUTANTS;
    const env = { SIM_SEEDS: seeds, SIM_FIRST: first };
    for (const sim of new Set(chosen.map((m) => m.sim ?? 'money'))) {
      const base = simulate(dir, env, sim);
      if (base.error) throw new Error(`the unmutated ${sim} simulation did not run:\n${base.error}`);
      console.log(`baseline (unmutated), seeds ${first}..${Number(first) + Number(seeds) - 1}: ${base.line}`);
      const baseFound = base.failures.filter((f) => fresh(f).length).length;
      if (baseFound) console.log(`  (the unmutated code fails ${baseFound} seeds: the counts below include them)`);
    }
    const rows = [];
    for (const m of chosen) {
      const restore = apply(dir, m);
      let r;
      try {
        r = simulate(dir, env, m.sim);
      } finally {
        restore();
      }
      if (keep && !r.error) writeFileSync(join(keep, `${m.id}.json`), JSON.stringify(r.failures, null, 1));
      if (r.error) {
        rows.push({ m, found: 'ERROR', inv: r.error.split('\n').find((l) => /Error|error/.test(l)) ?? '' });
        continue;
      }
      // Found: a seed the test fails, i.e. with a violation that is not a known finding (known.ts).
      // (A mutant that sends one more request shifts the random stream of every later choice, so a
      // seed that only meets a known finding elsewhere is not counted as finding the mutant.)
      const found = r.failures.filter((f) => fresh(f).length);
      const counts = new Map();
      for (const f of found)
        for (const inv of new Set(fresh(f).map((v) => v.inv))) counts.set(inv, (counts.get(inv) ?? 0) + 1);
      const inv = [...counts]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${n}`)
        .join(', ');
      rows.push({ m, found: found.length, inv, example: found[0], seconds: r.seconds });
    }
    const pad = (s, n) => String(s).padEnd(n);
    console.log(`\n${pad('mutant', 7)}${pad('defect', 44)}${pad('seeds', 7)}invariants violated (seeds)`);
    for (const { m, found, inv } of rows)
      console.log(`${pad(m.id, 7)}${pad(m.defect, 44)}${pad(found, 7)}${inv || '-'}`);
    console.log('');
    for (const { m, example } of rows)
      if (example)
        console.log(
          `${m.id} e.g. seed ${example.seed} (${example.mode}): ${fresh(example)[0].inv}: ${fresh(example)[0].detail.slice(0, 240)}\n` +
            `  replay: node test/sim/mutants.mjs --replay ${m.id} ${example.seed}`,
        );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
