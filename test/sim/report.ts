import type { ScenarioResult } from './scenario';

export const replayCommand = (seed: number) =>
  `SIM_SEED=${seed} npx vitest run --project unit test/sim/money.sim.test.ts`;

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

/** Failing seeds grouped by the invariant they broke, a line each. */
export function classesOf(failures: ScenarioResult[], listed = 8): string[] {
  const classes = new Map<string, ScenarioResult[]>();
  for (const f of failures)
    for (const inv of new Set(f.violations.map((v) => v.invariant))) classes.set(inv, [...(classes.get(inv) ?? []), f]);
  return [...classes].map(
    ([inv, rs]) => `  ${inv}: ${rs.length} seeds, e.g. ${rs.slice(0, listed).map(modeOf).join('; ')}`,
  );
}

/** Everything about one failing seed: how to replay it, its plan, what broke and its trace. */
export function reportOf(r: ScenarioResult): string {
  return [
    `seed ${r.seed}: ${r.violations.map((v) => v.invariant).join(', ')}`,
    `  replay: ${replayCommand(r.seed)}`,
    `  plan: ${JSON.stringify(r.plan)}`,
    ...r.violations.map((v) => `  violated ${v.invariant}: ${v.detail}`),
    '  trace:',
    ...r.trace.map((line) => `    ${line}`),
  ].join('\n');
}
