import { runBulk } from '../../src/commands/payments/bulk';
import type { BulkRun } from '../../src/commands/payments/bulk-options';
import type { NetworkFaults } from './network';
import type { Oracle } from './oracle';
import type { Outcome, runCommand } from './process';
import type { Machine } from './seams';
import type { World } from './world';

export interface RecheckDeps {
  machines: Machine[];
  world: World;
  oracle: Oracle;
  log: (line: string) => void;
  launch: (
    m: Machine,
    what: string,
    command: Parameters<typeof runCommand>[1],
    onConfirm?: () => void,
    faults?: NetworkFaults,
  ) => Promise<Outcome>;
  bulkRun: (extra: Partial<BulkRun>) => BulkRun;
}

/**
 * Once everything has landed, each machine's operator rechecks each journal its runs left (by the path
 * their output named) over a clean network: every payment refunded twice under one key (only a service
 * ignoring the header allows it) must be named a duplicate, with every refund carrying the key.
 */
export async function finalRecheck({ machines, world, oracle, log, launch, bulkRun }: RecheckDeps) {
  const named = new Map<string, string>();
  for (const m of [...machines]) {
    const journals = [...m.disk.files.keys()].filter((f) => /\/journals\/refund-[^/]*\.ndjson$/.test(f));
    for (const journal of journals) {
      const run = bulkRun({ recheck: true, journal, ids: [], input: undefined });
      const clean = { rate: 0, weights: {} };
      const rechecked = launch(
        m,
        'bulk refund --recheck --journal (final)',
        (ctx) => runBulk(run, ctx),
        undefined,
        clean,
      );
      let over = false;
      void rechecked.finally(() => (over = true));
      await world.runUntil(() => over, 50_000);
      const outcome = await rechecked;
      const dups = outcome.rows.filter((r) => r.result === 'duplicate');
      const shown = dups.map((r) => `${r.payment_id.slice(-3)} duplicate ${r.refund_id}`).join('; ');
      log(`  -> exit ${outcome.exit}: ${shown || 'no duplicate'}`);
      for (const r of dups) named.set(r.payment_id, r.refund_id ?? '');
    }
  }
  oracle.checkDuplicatesNamed('the final recheck', named);
}
