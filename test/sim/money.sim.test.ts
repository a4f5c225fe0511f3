import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runScenario } from './scenario';
import type { ScenarioResult } from './scenario';

/**
 * The money simulation: thousands of seeded scenarios of payctl's real bulk runner and refund paths
 * against a simulated service, network, disk and clock, with the money invariants checked after each.
 * SIM_SEED=N replays one seed (with its trace); SIM_SEEDS=N explores N seeds from SIM_FIRST (default 1).
 */
const one = process.env.SIM_SEED === undefined ? undefined : Number(process.env.SIM_SEED);
const count = one === undefined ? Number(process.env.SIM_SEEDS ?? 2_000) : 1;
const first = one ?? Number(process.env.SIM_FIRST ?? 1);
const root = mkdtempSync(join(tmpdir(), 'payctl-sim-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const replay = (seed: number) => `SIM_SEED=${seed} npx vitest run --project unit test/sim/money.sim.test.ts`;

function report(r: ScenarioResult): string {
  const { plan } = r;
  return [
    `seed ${r.seed}: ${r.violations.map((v) => v.invariant).join(', ')}`,
    `  replay: ${replay(r.seed)}`,
    `  plan: ${JSON.stringify(plan)}`,
    ...r.violations.map((v) => `  violated ${v.invariant}: ${v.detail}`),
    '  trace:',
    ...r.trace.map((line) => `    ${line}`),
  ].join('\n');
}

test(`money invariants hold over ${count} simulated scenarios`, { timeout: 600_000 }, async () => {
  const started = performance.now();
  const failures: ScenarioResult[] = [];
  let steps = 0;
  for (let seed = first; seed < first + count; seed++) {
    const r = await runScenario(seed, root);
    steps += r.steps;
    if (r.violations.length) failures.push(r);
    if (one !== undefined) console.log(report(r));
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `money simulation: ${count} seeds (${first}..${first + count - 1}) in ${seconds.toFixed(1)}s ` +
      `(${Math.round(count / seconds)} scenarios/s, ${steps} simulated steps), ${failures.length} failing`,
  );
  for (const f of failures.slice(0, 5)) console.log(report(f));
  expect(failures.map((f) => `seed ${f.seed} (${f.violations[0]!.invariant}): ${replay(f.seed)}`)).toEqual([]);
});
