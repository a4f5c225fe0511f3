import { ApiClient } from '../../src/client/client';
import type { SingleRefundEnv } from '../../src/commands/payments/refund-single';
import { exitCodeOf } from '../../src/cli/exit-codes';
import type { Context } from '../../src/commands/context';
import type { CommandResult } from '../../src/commands/result';
import type { BulkRow } from '../../src/bulk/runner';
import type { SimNetwork, Process } from './network';
import type { World } from './world';
import { testSettings } from '../unit/commands/fake-context';

/** What one payctl invocation did, as its user saw it. */
export interface Outcome {
  /** undefined: killed before it finished. */
  exit: number | undefined;
  /** The error's kind (src/contract/errors), when it failed. */
  kind?: string;
  message: string;
  hints: string[];
  notices: string[];
  rows: BulkRow[];
  data?: Record<string, unknown>;
}

const settings = testSettings('', { formatChosen: true, tz: 'UTC', childEnv: {} });

const sink = { write: () => true } as unknown as NodeJS.WritableStream;

export interface ProcessDeps {
  world: World;
  proc: Process;
  network: SimNetwork;
  state: string;
  /** Each row as payctl hands it to the output, at that very moment. */
  onRow: (row: BulkRow) => void;
  /** While the question is on the screen (the input file may change meanwhile). */
  onConfirm?: () => void;
}

/** A Context for one simulated payctl process: the simulated network, clock and a quiet terminal. */
export function contextFor(deps: ProcessDeps, notices: string[]): Context {
  const api = new ApiClient(deps.network.client());
  const ctx: Context & SingleRefundEnv = {
    // The single refund takes the Context as its env: its wait before a read-back is on the simulated clock.
    sleep: deps.world.sleep,
    settings: { ...settings, paths: { config: deps.state, data: deps.state, state: deps.state } },
    io: { stdout: sink, stderr: sink, stdin: process.stdin, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false },
    paths: { config: deps.state, data: deps.state, state: deps.state },
    signal: new AbortController().signal,
    nowMs: () => deps.world.now,
    api: async () => api,
    credentials: async () =>
      ({
        baseUrl: 'http://sim.test/v1',
        keyId: 'rzp_test_sim0000000001',
        keySecret: 'sim',
        source: 'environment',
      }) as never,
    profiles: () => Promise.reject(new Error('no profiles in the simulation')),
    notice: (m) => notices.push(m),
    confirm: async () => deps.onConfirm?.(),
    readStdin: async () => '',
  };
  return ctx;
}

/**
 * Starts one command; resolves with what its user saw once it ends, or at once when it is killed
 * (`onKill` hands the scenario the function that kills it). The scenario's clock drives it.
 */
export function runCommand(
  deps: ProcessDeps,
  command: (ctx: Context) => Promise<CommandResult>,
  onKill: (kill: () => void) => void,
): Promise<Outcome> {
  const notices: string[] = [];
  const outcome: Outcome = { exit: undefined, message: '', hints: [], notices, rows: [] };
  const fail = (err: unknown) => {
    outcome.exit = exitCodeOf(err);
    outcome.kind = (err as { kind?: string }).kind;
    outcome.message = (err as Error)?.message ?? String(err);
    outcome.hints = (err as { hints?: string[] }).hints ?? [];
    if (!(err as { kind?: string }).kind)
      outcome.message = `(not a payctl error) ${(err as Error)?.stack ?? String(err)}`;
  };
  const body = async () => {
    try {
      const ctx = contextFor(deps, notices);
      const result = await command(ctx);
      if (result.type === 'many') {
        for await (const row of result.items as AsyncIterable<BulkRow>) {
          if (deps.proc.dead) return;
          outcome.rows.push(row);
          deps.onRow(row);
        }
        await result.finish?.();
      } else if (result.type === 'one') outcome.data = result.data as Record<string, unknown>;
      outcome.exit = 0;
    } catch (err) {
      fail(err);
    }
  };
  return new Promise<Outcome>((resolve) => {
    onKill(() => {
      outcome.exit = undefined;
      resolve(outcome);
    });
    void body().then(() => {
      deps.proc.finished = true;
      if (!deps.proc.dead) resolve(outcome);
    });
  });
}
