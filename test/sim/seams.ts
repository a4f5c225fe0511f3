import { realDisk } from '../../src/bulk/disk';
import { Journal } from '../../src/bulk/journal';
import type { JournalDeps } from '../../src/bulk/journal';
import type { Disk } from '../../src/bulk/disk';
import { operations } from '../../src/commands/payments/operations';
import { refundPayments } from '../../src/commands/payments/refund';
import type { Context } from '../../src/commands/context';
import type { CommandResult } from '../../src/commands/result';
import { UsageError } from '../../src/contract/errors';
import type { SimDisk } from './disk';
import type { Process } from './network';
import type { World } from './world';

/**
 * src's seams are at the level of the journal (JournalDeps), the bulk refund row (its sleep) and the
 * single refund (its env's sleep); the commands that build them (openRun, runBulk) take none from
 * the Context. So the simulation installs them here, once: the journal of a path under a machine's
 * state directory runs on that machine's simulated disk, lock and clock, and a bulk refund waits on
 * the simulated clock. Outside a scenario everything is as it was.
 */
export interface Machine {
  name: string;
  state: string;
  disk: SimDisk;
  /** The process of this machine running now (one at a time on a machine). */
  current: Process | undefined;
  /** Journal locks held, by path; a killed process's locks are gone with it. */
  locks: Map<string, Process>;
  /** Told of every journal opened on this machine, once it is loaded (what a run starts from). */
  onJournalOpen?: (journal: Journal) => void;
}

interface Active {
  world: World;
  machines: Machine[];
}

let active: Active | undefined;

const machineOf = (path: string) => active?.machines.find((m) => path.startsWith(`${m.state}/`));

function journalDeps(path: string): JournalDeps {
  const machine = machineOf(path);
  if (!active || !machine) return {};
  const { world } = active;
  const proc = machine.current;
  const disk = machine.disk.forProcess(() => proc !== undefined && !proc.dead) as unknown as Disk;
  return {
    disk,
    now: () => world.now,
    // A group of records waits for its one sync as long as a turn of the clock: a kill can fall between.
    defer: (fn) => world.at(0, fn),
    lock: (lockPath) => {
      const holder = machine.locks.get(lockPath);
      if (holder && !holder.dead && !holder.finished)
        throw new UsageError(`journal ${lockPath} is in use by another payctl run (simulated process ${holder.id})`);
      if (proc) machine.locks.set(lockPath, proc);
      return { release: () => machine.locks.get(lockPath) === proc && machine.locks.delete(lockPath) };
    },
  };
}

let installed = false;

function install() {
  if (installed) return;
  installed = true;
  const open = Journal.open.bind(Journal);
  Journal.open = (path, op, opts = {}, deps = {}) => {
    const journal = open(path, op, opts, { ...journalDeps(path), ...deps });
    machineOf(path)?.onJournalOpen?.(journal);
    return journal;
  };
  // Whether a journal exists (a resume, a recheck) is asked of the machine's simulated disk too.
  const kind = realDisk.kind.bind(realDisk);
  realDisk.kind = (path) => {
    const machine = machineOf(path);
    return machine ? machine.disk.forProcess(() => true).kind(path) : kind(path);
  };
  const refund = operations.refund;
  operations.refund = (item, at, opts) => refund(item, at, active ? { ...opts, sleep: active.world.sleep } : opts);
}

/** Runs `fn` with the seams pointing at this scenario's clock and machines. */
export async function withSeams<T>(world: World, machines: Machine[], fn: () => Promise<T>): Promise<T> {
  install();
  active = { world, machines };
  try {
    return await fn();
  } finally {
    active = undefined;
  }
}

/** `payctl payments refund ID [--amount N] [--idempotency-key K] --yes`. */
export function singleRefund(
  ctx: Context,
  id: string,
  amount: number | undefined,
  key: string | undefined,
): Promise<CommandResult> {
  return refundPayments(
    {
      ids: [id],
      amount: amount === undefined ? undefined : String(amount),
      notes: [],
      retryUnknown: false,
      newRun: false,
      recheck: false,
      skipInvalid: false,
      idempotencyKey: key,
    },
    ctx,
  );
}
