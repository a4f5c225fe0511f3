import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Caps } from '../../src/agent/rails';
import { fail } from '../../src/agent/results';
import type { ToolResult } from '../../src/agent/results';
import type { ToolEnv } from '../../src/agent/plan';
import { scheduleOtherOperator } from './actors';
import { McpOracle } from './mcp-oracle';
import { SimSession } from './mcp-session';
import { SimNetwork } from './network';
import type { NetworkFaults, Process, SendRecord } from './network';
import { Oracle } from './oracle';
import type { Violation } from './oracle';
import { contextFor } from './process';
import { Rng } from './rng';
import { serviceFor } from './service';
import { World } from './world';

/** Every choice of an MCP scenario made up front. */
export interface McpPlan {
  idempotency: boolean;
  refundList: boolean;
  slowService: number;
  network: NetworkFaults;
  /** Chance that any one audit append is refused by the disk. */
  auditFails: number;
  payments: number;
  caps: Caps;
  /** Chance that a write is confirmed by the person (elicitation) rather than by a token. */
  elicit: number;
  /** Chance that the assistant plans (or confirms) twice at once. */
  twice: number;
  /** Chance that, after an unknown outcome, the assistant plans the same refund again as it first asked it. */
  naive: number;
  /** Another operator refunds the same payments meanwhile (only where the service lists refunds). */
  otherOperator: boolean;
}

export interface McpResult {
  seed: number;
  plan: McpPlan;
  violations: Violation[];
  trace: string[];
  steps: number;
  calls: number;
  /** How many calls answered each way (and how many appends the disk refused), for the run's summary. */
  tally: Map<string, number>;
}

function planOf(rng: Rng, amounts: number[]): McpPlan {
  const idempotency = rng.chance(0.6);
  const refundList = rng.chance(0.8);
  const sum = amounts.reduce((a, b) => a + b, 0);
  return {
    idempotency,
    refundList,
    slowService: rng.pick([0, 0.05, 0.2]),
    network: {
      rate: rng.pick([0, 0.1, 0.3, 0.5]),
      weights: {
        refused: 1,
        lost: 2,
        answer_lost: 4,
        delayed: 3,
        duplicate: idempotency ? 1 : 0,
        proxy_429: 1,
        proxy_5xx: 2,
        proxy_html: 1,
      },
    },
    auditFails: rng.pick([0, 0, 0.05, 0.2]),
    payments: amounts.length,
    caps: {
      maxAmount: rng.chance(0.4) ? rng.pick(amounts) : undefined,
      maxTotal: rng.chance(0.6) ? rng.int(Math.floor(sum / 3), sum) : undefined,
      maxWrites: rng.chance(0.5) ? rng.int(1, amounts.length) : undefined,
      tokenTtlMs: rng.pick([60_000, 300_000]),
    },
    elicit: rng.pick([0, 0.5, 1]),
    twice: rng.pick([0, 0.2, 0.5]),
    naive: rng.pick([0, 0.5]),
    otherOperator: refundList && rng.chance(0.3),
  };
}

const summary = (r: ToolResult) => {
  const s = r.structuredContent as Record<string, unknown> | undefined;
  if (!s) return `error: ${r.content[0]?.text.slice(0, 200)}`;
  return [
    s.outcome,
    s.idempotency_key ? `key ${String(s.idempotency_key)}` : '',
    s.cap ?? '',
    s.audit_log ? 'log failed' : '',
  ]
    .concat(s.outcome === 'planned' ? [] : [String(s.message ?? '').slice(0, 200)])
    .filter(Boolean)
    .join(' ');
};

/**
 * One `payctl mcp` session from its seed: an assistant refunding a few payments at once, each write
 * planned and confirmed by token or by the person, over a faulty network and an audit log whose appends
 * may fail; after an unknown outcome it plans the same refund again (as told, or naively).
 */
export async function runMcpScenario(seed: number, root: string, verbose = false): Promise<McpResult> {
  const rng = new Rng(seed);
  const setupRng = rng.fork();
  const count = setupRng.int(1, 5);
  const world = new World();
  const payments = Array.from({ length: count }, (_, i) => {
    const amount = setupRng.int(50, 500) * 100;
    const already = setupRng.chance(0.3) ? setupRng.int(1, amount / 200) * 100 : 0;
    const left = amount - already;
    const asked = setupRng.chance(0.6) ? Math.min(left, setupRng.int(1, 60) * 100) : undefined;
    const id = `pay_MCP${String(seed % 100_000).padStart(5, '0')}${String(i).padStart(3, '0')}`;
    return { id, amount, already, asked, left };
  });
  const plan = planOf(
    rng.fork(),
    payments.map((p) => p.asked ?? p.left),
  );
  const service = serviceFor(world, plan, rng.fork());
  const sends: SendRecord[] = [];
  const oracle = new Oracle(service, sends);
  for (const p of payments) {
    service.addPayment({ id: p.id, amount: p.amount, currency: 'INR', status: 'captured', amount_refunded: p.already });
    oracle.intents.set(p.id, { kind: 'refund', amount: p.asked, bound: p.left });
  }
  service.onArrival = (req) => {
    if (req.actor === 'payctl' && req.method === 'POST')
      oracle.onRefundArrival(decodeURIComponent(req.path.split('/')[2] ?? ''), req.body);
  };
  if (plan.otherOperator)
    scheduleOtherOperator(
      world,
      service,
      rng.fork(),
      payments.map((p) => p.id),
      new Map(payments.map((p) => [p.id, p.asked])),
    );
  const start = world.now;
  const trace: string[] = [];
  const log = (line: string) => trace.push(`[t+${((world.now - start) / 1000).toFixed(1)}s] ${line}`);
  if (verbose) service.log = log;
  const state = join(root, `m${seed}`);
  rmSync(state, { recursive: true, force: true });
  mkdirSync(state, { recursive: true });
  const auditPath = join(state, 'mcp-audit.ndjson');
  const auditRng = rng.fork();
  const session = new SimSession(
    plan.caps,
    auditPath,
    () => world.now,
    (event) => {
      if (!auditRng.chance(plan.auditFails)) return undefined;
      const how = auditRng.chance(0.5) ? 'refused' : 'torn';
      log(`    the audit log's '${event}' append fails (${how === 'refused' ? 'before a byte' : 'after its line'})`);
      return how;
    },
  );
  const mcp = new McpOracle(oracle, service, sends, plan.caps, auditPath);
  const netRng = rng.fork();
  let procSeq = 0;
  const tally = new Map<string, number>();
  const tallied = (what: string) => tally.set(what, (tally.get(what) ?? 0) + 1);

  /** One tool call of the assistant, on a process of its own (its requests, its network). */
  const call = async (pid: string, what: string, fn: (env: ToolEnv) => Promise<ToolResult>, planKey?: string) => {
    const proc: Process = { id: ++procSeq, dead: false, finished: false, command: what };
    const network = new SimNetwork(world, service, netRng.fork(), plan.network, proc, sends, (b) => b, log);
    network.beforePost = (s) => mcp.beforePost(`call ${proc.id} (${what})`, s);
    const env = session.envFor(contextFor({ world, proc, network, state, onRow: () => undefined }, []));
    log(`call ${proc.id}: ${what}`);
    // What the handler throws reaches the assistant as the protocol's error: its message alone.
    const result = await fn(env).catch((err: unknown) => fail(String((err as Error)?.message ?? err)));
    proc.finished = true;
    const said = result.structuredContent as
      { outcome?: string; audit_log?: string; plan?: { note?: string } } | undefined;
    if (said?.plan?.note) tallied('plan lends the unknown key');
    tallied(
      `${what.startsWith('confirm') ? 'confirm' : what.endsWith('(the person is asked)') ? 'elicited' : 'plan'} ${said?.outcome ?? 'error'}`,
    );
    if (said?.audit_log) tallied('outcome told, log failed');
    log(`  -> call ${proc.id}: ${summary(result)}`);
    mcp.onResult(`call ${proc.id} (${what})`, proc.id, pid, result, planKey);
    return result;
  };
  const times = <T>(n: number, fn: () => Promise<T>) => Promise.all(Array.from({ length: n }, fn));

  /** The assistant's work on one payment: plan, confirm, and after an unknown outcome, again. */
  const assistant = async (p: (typeof payments)[number], arng: Rng) => {
    await world.sleep(arng.int(0, 3_000));
    const first: Record<string, unknown> = { payment_id: p.id, ...(p.asked ? { amount: p.asked } : {}) };
    let args = first;
    for (let attempt = 0; attempt < 4; attempt++) {
      const shown = JSON.stringify(args);
      const given = typeof args.idempotency_key === 'string' ? args.idempotency_key : undefined;
      // Twice at once only where the plan names the refund by its key: two plans of one refund.
      const n = args.idempotency_key && arng.chance(plan.twice) ? 2 : 1;
      let results: ToolResult[];
      if (arng.chance(plan.elicit)) {
        const ask = async () => {
          await world.sleep(arng.int(200, 30_000));
          return arng.chance(0.85);
        };
        results = await times(n, () =>
          call(p.id, `payments_refund ${shown} (the person is asked)`, (env) => session.write(args, env, ask), given),
        );
      } else {
        const planned = await times(n, () => call(p.id, `payments_refund ${shown}`, (env) => session.write(args, env)));
        results = [];
        for (const r of planned) {
          const made = r.structuredContent as { token?: string; plan?: { args: { idempotency_key?: string } } };
          const token = made?.token;
          if (!token) {
            results.push(r);
            continue;
          }
          await world.sleep(arng.chance(0.1) ? arng.int(50_000, 400_000) : arng.int(100, 20_000));
          // A replayed confirm races the first one: the token is spent once.
          const k = arng.chance(plan.twice) ? 2 : 1;
          results.push(
            ...(await times(k, () =>
              call(
                p.id,
                `confirm ${token.slice(0, 8)}…`,
                (env) => session.confirm(token, env),
                made.plan?.args.idempotency_key,
              ),
            )),
          );
        }
      }
      const said = results.map(
        (r) => r.structuredContent as { outcome?: string; idempotency_key?: string } | undefined,
      );
      if (said.some((s) => s?.outcome === 'done' || s?.outcome === 'refused' || s?.outcome === 'declined')) return;
      const unknown = said.find((s) => s?.outcome === 'unknown');
      if (unknown)
        // As check_with says (the key), or as the assistant first asked it.
        args = arng.chance(plan.naive) ? first : { payment_id: p.id, idempotency_key: unknown.idempotency_key };
      else if (said.some((s) => s?.outcome === 'not done') && arng.chance(0.5)) return;
      await world.sleep(arng.int(0, 120_000));
    }
  };

  const tasks = payments.map((p) => assistant(p, rng.fork()));
  const ok = await world.runAll(tasks, (detail) => oracle.violations.push({ invariant: 'harness', detail }));
  if (!ok) oracle.violations.push({ invariant: 'hang', detail: 'an assistant call waited on nothing' });
  await world.drain();
  oracle.finish();
  mcp.finish();
  log(`service: ${payments.map((p) => `${p.id.slice(-3)}: ${oracle.describe(p.id)}`).join('; ')}`);
  log(`audit appends: ${session.appends.map((a) => `${a.event}${a.failed ? ` (${a.failed})` : ''}`).join(', ')}`);
  rmSync(state, { recursive: true, force: true });
  for (const a of session.appends) if (a.failed) tallied(`append ${a.failed}: ${a.event}`);
  return {
    tally,
    seed,
    plan,
    violations: oracle.violations,
    trace,
    steps: world.steps,
    calls: procSeq,
  };
}
