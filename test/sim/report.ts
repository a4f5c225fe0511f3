import type { Violation } from './oracle';
import type { ScenarioResult } from './scenario';

/** What every simulation keeps of a seed for its report. */
export interface SeedResult {
  seed: number;
  plan: unknown;
  violations: Violation[];
  trace: string[];
}

/** The command that replays one seed of a simulation (`file`, the money simulation unless given). */
export const replayCommand = (seed: number, file = 'test/sim/money.sim.test.ts') =>
  `SIM_SEED=${seed} npx vitest run --project unit ${file}`;

/** A seed's plan in a few words: kind, and what the service offers. */
export function modeOf(r: ScenarioResult): string {
  const p = r.plan;
  const flags = [
    p.kind.replace('_refund', '').replace('bulk_', ''),
    p.idempotency ? 'header' : '',
    p.refundList ? 'list' : '',
    p.idempotency || p.refundList ? '' : 'bare',
    p.twoMachines ? '2 machines' : '',
    p.otherOperator ? 'other operator' : '',
  ];
  return `${r.seed} (${flags.filter(Boolean).join(', ')})`;
}

/** Failing seeds grouped by the invariant they broke, a line each, `listed` of each named by `name`. */
export function classesOf<R extends SeedResult>(failures: R[], listed: number, name: (r: R) => string): string[] {
  const classes = new Map<string, R[]>();
  for (const f of failures)
    for (const inv of new Set(f.violations.map((v) => v.invariant))) classes.set(inv, [...(classes.get(inv) ?? []), f]);
  return [...classes].map(
    ([inv, rs]) => `  ${inv}: ${rs.length} seeds, e.g. ${rs.slice(0, listed).map(name).join('; ')}`,
  );
}

/** Everything about one failing seed: how to replay it (from `file`), its plan, what broke and its trace. */
export function reportOf(r: SeedResult, file?: string): string {
  return [
    `seed ${r.seed}: ${r.violations.map((v) => v.invariant).join(', ')}`,
    `  replay: ${replayCommand(r.seed, file)}`,
    `  plan: ${JSON.stringify(r.plan)}`,
    ...r.violations.map((v) => `  violated ${v.invariant}: ${v.detail}`),
    '  trace:',
    ...r.trace.map((line) => `    ${line}`),
  ].join('\n');
}
