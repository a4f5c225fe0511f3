import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBulk } from '../../src/commands/payments/bulk';
import type { BulkRun } from '../../src/commands/payments/bulk-options';
import { SimDisk } from './disk';
import { SimNetwork } from './network';
import type { Process, SendRecord } from './network';
import { Oracle } from './oracle';
import type { Violation } from './oracle';
import { planScenario } from './plan';
import type { ScenarioPlan } from './plan';
import { runCommand } from './process';
import type { Outcome } from './process';
import { Rng } from './rng';
import { serviceFor } from './service';
import { singleRefund, withSeams } from './seams';
import type { Machine } from './seams';
import { claimRow, claimSingle, rerunOf } from './user';
import { World } from './world';
import { colleagueFinishes, mangle, scheduleOtherOperator } from './actors';
import { finalRecheck } from './recheck';

export interface ScenarioResult {
  seed: number;
  plan: ScenarioPlan;
  violations: Violation[];
  /** What happened, one line per command and kill, for the report of a failing seed. */
  trace: string[];
  steps: number;
}

const MAX_KILLS = 3;

/** A scenario from its seed alone: the service, the faults, the operators, and the invariants after. */
export async function runScenario(seed: number, root: string, verbose = false): Promise<ScenarioResult> {
  const rng = new Rng(seed);
  const plan = planScenario(rng.fork());
  const netRng = rng.fork();
  const userRng = rng.fork();
  const world = new World();
  const service = serviceFor(world, plan, rng.fork());
  const sends: SendRecord[] = [];
  const oracle = new Oracle(service, sends);
  service.onArrival = (req) => {
    if (req.actor !== 'payctl' || req.method !== 'POST') return;
    const pid = decodeURIComponent(req.path.split('/')[2] ?? '');
    if (req.path.endsWith('/refund')) oracle.onRefundArrival(pid, req.body);
    else oracle.onCaptureArrival(pid, req.body);
  };
  const trace: string[] = [];
  const log = (line: string) => trace.push(`[t+${((world.now - start) / 1000).toFixed(1)}s] ${line}`);
  const start = world.now;
  service.log = log;

  // The payments, and what the user means to do with each.
  const setupRng = rng.fork();
  const ids: string[] = [];
  const amounts = new Map<string, number | undefined>();
  const flagAmount = setupRng.int(1, 40) * 100;
  for (let i = 0; i < plan.payments; i++) {
    const id = `pay_SIM${String(seed % 100_000).padStart(5, '0')}${String(i).padStart(3, '0')}`;
    const amount = setupRng.int(50, 500) * 100;
    const capture = plan.kind === 'bulk_capture';
    const already = capture || !setupRng.chance(0.3) ? 0 : setupRng.int(1, amount / 200) * 100;
    service.addPayment({
      id,
      amount,
      currency: 'INR',
      status: capture ? 'authorized' : 'captured',
      amount_refunded: already,
    });
    const a = plan.amounts === 'flag' ? flagAmount : plan.amounts === 'csv' ? setupRng.int(1, 40) * 100 : undefined;
    amounts.set(id, a);
    oracle.intents.set(id, capture ? { kind: 'capture' } : { kind: 'refund', amount: a, bound: amount - already });
    ids.push(id);
  }
  const hostile = (body: Record<string, unknown>) => mangle(netRng, body, service);

  // Another operator refunds the same payments now and then: sometimes the very amount payctl will.
  if (plan.otherOperator) scheduleOtherOperator(world, service, rng.fork(), ids, amounts);
  // ...and, seeing a bulk run end incomplete, may finish some of its rows by hand before it is resumed.
  const colleagueRng = plan.otherOperator ? rng.fork() : undefined;

  // Checked before every step of the clock and every disk operation: kills, rewrites of the input.
  const hooks = new Set<() => void>();
  const runHooks = () => {
    for (const hook of [...hooks]) hook();
  };
  world.onStep = runHooks;
  let kills = 0;
  let procSeq = 0;
  const machines: Machine[] = [];
  /** The processes each machine ran, by id (a journal is a machine's own). */
  const procsOn = new Map<Machine, Set<number>>();
  const newMachine = (name: string): Machine => {
    const state = join(root, `s${seed}`, name);
    mkdirSync(state, { recursive: true });
    const m: Machine = { name, state, disk: new SimDisk(rng.fork(), plan.disk), current: undefined, locks: new Map() };
    m.disk.onOp = runHooks;
    m.onJournalOpen = (journal) =>
      oracle.checkJournal(
        `process ${m.current?.id} opening its journal`,
        (id) => journal.stateOf(id),
        new Set([...procsOn.get(m)!].filter((p) => p !== m.current?.id)),
      );
    procsOn.set(m, new Set());
    if (verbose) m.disk.log = log;
    machines.push(m);
    return m;
  };
  const input = plan.amounts === 'csv' ? join(root, `s${seed}`, 'refunds.csv') : undefined;
  const csv = (scale: number, drop: boolean) =>
    [
      'payment_id,amount',
      ...ids.filter((_, i) => !(drop && i === 0)).map((id) => `${id},${amounts.get(id)! * scale}`),
    ].join('\n') + '\n';

  /** Starts a payctl process on a machine, maybe armed to be killed at some step or disk write. */
  const launch = (
    m: Machine,
    what: string,
    command: Parameters<typeof runCommand>[1],
    onConfirm?: () => void,
    faults = plan.network,
  ): Promise<Outcome> => {
    const proc: Process = { id: ++procSeq, dead: false, finished: false, command: what };
    m.current = proc;
    procsOn.get(m)!.add(proc.id);
    const network = new SimNetwork(world, service, netRng.fork(), faults, proc, sends, hostile, log);
    network.beforePost = (s) => {
      oracle.checkNotHostile(`process ${proc.id} (${what})`, s);
      if (what.startsWith('bulk')) oracle.checkAnnounced(`process ${proc.id} (${what})`, s, m.disk.durableLines());
    };
    const killRng = userRng.fork();
    let kill: (() => void) | undefined;
    if (kills < MAX_KILLS && killRng.chance(plan.killChance)) {
      const onDisk = killRng.chance(0.5);
      const at = onDisk ? m.disk.ops + killRng.int(1, 30) : world.steps + killRng.int(1, 60);
      const check = () => {
        if (proc.dead || proc.finished) return hooks.delete(check);
        if ((onDisk ? m.disk.ops : world.steps) < at || kill === undefined) return;
        hooks.delete(check);
        kills++;
        proc.dead = true;
        m.disk.crash();
        log(
          `killed process ${proc.id} (${what}) before ${onDisk ? `disk operation ${at}` : `step ${at}`}; the disk keeps what was synced`,
        );
        kill();
      };
      hooks.add(check);
    }
    log(`machine ${m.name}, process ${proc.id}: ${what}`);
    return runCommand(
      {
        world,
        proc,
        network,
        state: m.state,
        onConfirm,
        onRow: (row) => claimRow(oracle, `process ${proc.id} row ${row.line}`, row, proc.id),
      },
      command,
      (onKill) => (kill = onKill),
    );
  };

  const bulkRun = (extra: Partial<BulkRun>): BulkRun => ({
    op: plan.kind === 'bulk_capture' ? 'capture' : 'refund',
    ids: input ? [] : ids,
    input,
    amount: plan.amounts === 'flag' ? String(flagAmount) : undefined,
    notes: [],
    retryUnknown: false,
    concurrency: String(plan.concurrency),
    newRun: false,
    recheck: false,
    skipInvalid: false,
    ...extra,
  });

  /** One operator on one machine: runs the bulk command, and again while it says it is incomplete. */
  const operateBulk = async (m: Machine, delayMs: number) => {
    await world.sleep(delayMs);
    for (let run = 0; run < plan.runs; run++) {
      if (input) writeFileSync(input, csv(1, false)); // the confirmed input, given again on a resume
      const retryUnknown = run > 0 && userRng.chance(0.5);
      const recheck = !retryUnknown && run > 0 && userRng.chance(0.2);
      const what = `bulk ${plan.kind === 'bulk_capture' ? 'capture' : 'refund'}${retryUnknown ? ' --retry-unknown' : ''}${recheck ? ' --recheck' : ''}`;
      let onConfirm: (() => void) | undefined;
      if (input && plan.rewriteInput && run === 0) {
        // Rewritten in place while the operator reads the question, or at some step of the run.
        const atQuestion = userRng.chance(0.5);
        const at = world.steps + userRng.int(1, 30);
        const rewrite = () => {
          if (!atQuestion && world.steps < at) return;
          hooks.delete(rewrite);
          onConfirm = undefined;
          writeFileSync(input, csv(40, true));
          log(
            `the input file was rewritten in place (amounts x40, first row gone)${atQuestion ? ' at the question' : ''}`,
          );
        };
        if (atQuestion) onConfirm = rewrite;
        else hooks.add(rewrite);
      }
      const outcome = await launch(
        m,
        what,
        (ctx) => runBulk(bulkRun({ retryUnknown, recheck }), ctx),
        () => onConfirm?.(),
      );
      hooks.clear();
      log(
        `  -> ${outcome.exit === undefined ? 'killed' : `exit ${outcome.exit}`}: ${outcome.rows.map((r) => `${r.payment_id.slice(-3)} ${r.result}${r.reason ? ` (${r.reason.slice(0, 160)})` : ''}`).join('; ')}${outcome.exit ? ` | ${outcome.message.slice(0, 300)}` : ''}`,
      );
      if (outcome.exit === 0 && !recheck) return;
      if (outcome.exit !== undefined && outcome.exit !== 7 && outcome.exit !== 1) {
        if (outcome.exit !== 4 && outcome.exit !== 5) return;
      }
      if (colleagueRng?.chance(0.5)) {
        // The rows not shown done: unknown or failed, or never reported (the run died).
        const settled = new Set(
          outcome.rows.filter((r) => r.result === 'done' || r.result === 'skipped').map((r) => r.payment_id),
        );
        const open = ids.filter((id) => !settled.has(id));
        await world.sleep(colleagueRng.int(1_000, 60_000));
        const by = colleagueFinishes(service, colleagueRng, open, amounts);
        if (by.length) log(`a colleague refunded by hand, with no key: ${by.join(', ')}`);
      }
      m.disk.makeRoom();
      await world.sleep(userRng.int(0, 90_000));
    }
  };

  /** One person refunding one payment at a time, rerunning as the messages tell them to. */
  const operateSingle = async (m: Machine) => {
    for (const id of ids) {
      let key: string | undefined;
      let amount = amounts.get(id);
      let target = id;
      for (let run = 0; run < plan.runs; run++) {
        const what = `refund ${target} ${amount === undefined ? '(all that remains)' : `--amount ${amount}`}${key ? ` --idempotency-key ${key}` : ''}`;
        const outcome = await launch(m, what, (ctx) => singleRefund(ctx, target, amount, key));
        hooks.clear();
        log(
          `  -> ${outcome.exit === undefined ? 'killed' : `exit ${outcome.exit}`}${outcome.exit ? `: ${outcome.message.slice(0, 300)} ${outcome.hints.join(' ')}` : ''}`,
        );
        claimSingle(oracle, `process ${procSeq} (${what})`, id, outcome, procSeq);
        const next = rerunOf(outcome, key);
        if (!next) break;
        // A printed rerun is run as printed: its payment, amount and key.
        key = next.key;
        amount = next.amount ?? amount;
        target = next.id ?? target;
        await world.sleep(userRng.int(0, 120_000));
      }
    }
  };

  return withSeams(world, machines, async () => {
    const operators: Promise<void>[] = [];
    if (plan.kind === 'single_refund') operators.push(operateSingle(newMachine('A')));
    else {
      operators.push(operateBulk(newMachine('A'), 0));
      if (plan.twoMachines) operators.push(operateBulk(newMachine('B'), userRng.int(0, 20_000)));
    }
    const ok = await world.runAll(operators, (detail) => oracle.violations.push({ invariant: 'harness', detail }));
    if (!ok)
      oracle.violations.push({
        invariant: 'hang',
        detail: `a payctl process waited on nothing (or ran past the step budget); resources: ${process.getActiveResourcesInfo().join(' ')}`,
      });
    hooks.clear();
    await world.drain();
    if (ok && plan.kind === 'bulk_refund' && plan.refundList) {
      kills = MAX_KILLS; // nobody is killed any more
      await finalRecheck({ machines, world, oracle, log, launch, bulkRun });
    }
    oracle.finish();
    return { seed, plan, violations: oracle.violations, trace, steps: world.steps };
  });
}
