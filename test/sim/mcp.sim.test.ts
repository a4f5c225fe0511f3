import { seedsToRun, writeFailures } from './seeds';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { runMcpScenario } from './mcp-scenario';
import type { McpResult } from './mcp-scenario';
import { classesOf, replayCommand, reportOf } from './report';

/**
 * The `payctl mcp` simulation: seeded sessions of an assistant refunding payments through the real
 * rails of src/agent (plans, tokens, the person's answer, caps taken at send, the audit log), several
 * calls at once, over the simulated service, network and clock; the money and rails invariants after each.
 * SIM_SEED=N replays one seed with its trace; SIM_SEEDS=N runs N seeds from SIM_FIRST (default 1); a run
 * with neither SIM_SEED nor SIM_FIRST also runs SIM_FRESH (default 150) fresh seeds, printed with their replay.
 */
/**
 * Seeds fresh runs failed on, run by every default run from then on. 1586873461: a refund the assistant
 * planned under an earlier refund's key, that refund settled as not sent, was planned for what remained
 * (another amount under the same key) instead of the earlier amount.
 */
const FOUND = [1586873461];
const { one, fixed, first, freshCount, freshFirst, seeds } = seedsToRun({ fixed: 400, fresh: 150, found: FOUND });
const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
const FILE = 'test/sim/mcp.sim.test.ts';
const replay = (seed: number) => replayCommand(seed, FILE);
const modeOf = (f: McpResult) =>
  `${f.seed} (mcp${f.plan.idempotency ? ', header' : ''}${f.plan.refundList ? ', list' : ''})`;
// The audit log is fsynced on every append: on a tmpfs that costs nothing.
const root = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'payctl-mcp-sim-'));

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 10, 25, 4, 0, 0) });
  // The refund command's handler loads on first use: loaded here, so no import in a seed waits on real I/O.
  await import('../../src/commands/payments/refund');
  await runMcpScenario(0, root);
});
afterAll(() => {
  vi.useRealTimers();
  rmSync(root, { recursive: true, force: true });
});

test(`mcp rails and money invariants hold over ${seeds.length} simulated sessions`, { timeout: 600_000 }, async () => {
  const started = performance.now();
  const failures: McpResult[] = [];
  let calls = 0;
  const tally = new Map<string, number>();
  if (freshCount)
    console.log(
      `mcp simulation: fresh seeds ${freshFirst}..${freshFirst + freshCount - 1}; replay them: ` +
        `SIM_FIRST=${freshFirst} SIM_SEEDS=${freshCount} npx vitest run --project unit ${FILE}`,
    );
  for (const seed of seeds) {
    const r = await runMcpScenario(seed, root, one !== undefined);
    calls += r.calls;
    for (const [k, n] of r.tally) tally.set(k, (tally.get(k) ?? 0) + n);
    if (r.violations.length) failures.push(r);
    if (one !== undefined) console.log(reportOf(r, FILE));
  }
  const seconds = (performance.now() - started) / 1000;
  writeFailures(failures, modeOf, () => false); // no violation of this simulation is a known finding
  console.log(
    `mcp simulation: ${seeds.length} seeds (${first}..${first + fixed - 1}${freshCount ? ` and fresh ${freshFirst}..${freshFirst + freshCount - 1}` : ''}) ` +
      `in ${seconds.toFixed(1)}s (${calls} tool calls): ${failures.length} failing`,
  );
  // What the sessions went through: each path of the rails, and how often.
  console.log(
    `  calls: ${[...tally]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
  );
  for (const line of classesOf(failures, 8, modeOf)) console.log(line);
  if (one === undefined)
    for (const f of failures.slice(0, Number(process.env.SIM_SHOW ?? 2))) console.log(reportOf(f, FILE));
  expect(failures.map((f) => `seed ${f.seed} (${f.violations[0]!.invariant}): ${replay(f.seed)}`)).toEqual([]);
});

test('an mcp seed replays the same session, call for call', { timeout: 120_000 }, async () => {
  const differ: number[] = [];
  // Keys and tokens are random by design (crypto): no choice depends on them.
  const text = (r: McpResult) => r.trace.map((l) => l.replace(/pcs_[A-Za-z0-9_-]+|pc_[A-Za-z0-9_-]+/g, '*')).join('\n');
  for (const seed of one === undefined ? range(first, 20).map((s) => s * 7) : [one]) {
    const [a, b] = [await runMcpScenario(seed, root, true), await runMcpScenario(seed, root, true)];
    if (text(a) !== text(b)) differ.push(seed);
  }
  expect(differ).toEqual([]);
});
