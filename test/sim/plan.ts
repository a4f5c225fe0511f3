import type { DiskFaults } from './disk';
import type { NetworkFaults } from './network';
import type { Rng } from './rng';

export type ScenarioKind = 'bulk_refund' | 'single_refund' | 'bulk_capture';

/** Every choice of a scenario that is made up front; the rest is drawn as it runs, from the same seed. */
export interface ScenarioPlan {
  kind: ScenarioKind;
  idempotency: boolean;
  refundList: boolean;
  /** Chance that the service takes long over a write (a window for 409 and for landing late). */
  slowService: number;
  network: NetworkFaults;
  disk: DiskFaults;
  payments: number;
  /** Bulk: every row the same --amount, per-row amounts in an --input CSV, or all that remains. */
  amounts: 'flag' | 'csv' | 'remaining';
  /** The input file is rewritten in place while the run goes (an export job, an editor). */
  rewriteInput: boolean;
  killChance: number;
  otherOperator: boolean;
  twoMachines: boolean;
  concurrency: number;
  runs: number;
}

const HOSTILE_WEIGHT = 2;

export function planScenario(rng: Rng): ScenarioPlan {
  const kind = rng.weighted<ScenarioKind>({ bulk_refund: 5, single_refund: 3, bulk_capture: 2 });
  const idempotency = rng.chance(0.6);
  const refundList = rng.chance(0.7);
  const identity = idempotency || refundList;
  const hostile = rng.chance(0.15);
  const network: NetworkFaults = {
    rate: rng.pick([0, 0.05, 0.15, 0.3, 0.5]),
    weights: {
      refused: 1,
      lost: 2,
      answer_lost: 3,
      delayed: 3,
      duplicate: idempotency ? 1 : 0,
      proxy_429: 1,
      proxy_5xx: 2,
      proxy_html: 1,
      hostile: hostile ? HOSTILE_WEIGHT : 0,
    },
  };
  const fullDisk = rng.chance(0.15);
  const amounts =
    kind === 'bulk_refund' ? rng.pick(['flag', 'csv', 'remaining'] as const) : rng.pick(['flag', 'remaining'] as const);
  return {
    kind,
    idempotency,
    refundList,
    slowService: rng.pick([0, 0.05, 0.2]),
    network,
    disk: {
      writeRate: rng.pick([0, 0, 0.01, 0.05]),
      fsyncRate: rng.pick([0, 0, 0, 0.02]),
      capacity: fullDisk ? rng.int(150, 3_000) : Number.POSITIVE_INFINITY,
    },
    payments: kind === 'single_refund' ? rng.int(1, 2) : rng.int(1, 7),
    amounts,
    rewriteInput: amounts === 'csv' && rng.chance(0.4),
    killChance: rng.pick([0, 0.2, 0.5]),
    // Without the list, another operator's refund of the same amount is told from ours only by
    // amount_refunded (the documented fallback): those scenarios keep the payments to payctl alone.
    otherOperator: refundList && kind !== 'bulk_capture' && rng.chance(0.3),
    twoMachines: identity && kind === 'bulk_refund' && rng.chance(0.12),
    concurrency: rng.pick([1, 2, 4, 8]),
    runs: rng.int(2, 5),
  };
}
