import { writeFileSync } from 'node:fs';

/**
 * The seeds a simulation file runs: SIM_SEED=N replays one seed; SIM_SEEDS=N runs N seeds from SIM_FIRST
 * (default 1); a run with neither SIM_SEED nor SIM_FIRST also runs `found` (seeds fresh runs once failed
 * on, kept once fixed) and SIM_FRESH fresh seeds from a random first one, which the file prints with the
 * command that replays them.
 */
export function seedsToRun(defaults: { fixed: number; fresh: number; found?: readonly number[] }) {
  const env = process.env;
  const one = env.SIM_SEED === undefined ? undefined : Number(env.SIM_SEED);
  const fixed = one === undefined ? Number(env.SIM_SEEDS ?? defaults.fixed) : 1;
  const first = one ?? Number(env.SIM_FIRST ?? 1);
  const freshCount = one === undefined && env.SIM_FIRST === undefined ? Number(env.SIM_FRESH ?? defaults.fresh) : 0;
  const freshFirst = 1_000_000 + Math.floor(Math.random() * 2_000_000_000);
  const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
  return {
    one,
    fixed,
    first,
    freshCount,
    freshFirst,
    seeds: [...range(first, fixed), ...(freshCount ? (defaults.found ?? []) : []), ...range(freshFirst, freshCount)],
  };
}

interface Failed {
  seed: number;
  violations: ReadonlyArray<{ invariant: string; detail: string }>;
}

/**
 * SIM_JSON=FILE: the failing seeds and their invariants, for comparing two builds (a fix reverted): the
 * shape mutants.mjs reads. `known`: whether a violation is a known finding, which fails only under
 * SIM_STRICT=1.
 */
export function writeFailures<F extends Failed>(
  failures: F[],
  mode: (f: F) => string,
  known: (f: F, v: F['violations'][number]) => boolean,
) {
  if (!process.env.SIM_JSON) return;
  const rows = failures.map((f) => ({
    seed: f.seed,
    mode: mode(f),
    invariants: f.violations.map((v) => v.invariant),
    known: f.violations.map((v) => known(f, v)),
    details: f.violations.map((v) => v.detail),
  }));
  writeFileSync(process.env.SIM_JSON, JSON.stringify(rows));
}
