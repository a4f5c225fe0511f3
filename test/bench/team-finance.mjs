// The sandbox a team shares and finance's bank tie-out, as test/bench/run.mjs measures them on each Node
// line: a fleet of suites on one sandbox (latency under load; no request may fail and no suite may see
// another's records), a 10,000-record account's snapshot saved and loaded, a webhook backlog forwarded
// by `webhooks listen` against a bare loop POSTing the same bodies, and a year's bank statement matched
// in each format (entries a second, peak memory).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fleet, snapshotTimes } from './fleet.mjs';
import { listenBacklog } from './listen-backlog.mjs';
import { ROUNDS, median } from './common.mjs';

const BANK = fileURLToPath(new URL('./bank-match.mjs', import.meta.url));
const ms = (x) => `${x.toFixed(0)} ms`;

/** `target(name, value, limit, opts)` is run.mjs's: it records the ratio and answers its verdict. */
export async function teamSandbox(target) {
  const f = await fleet({ suites: 50, rounds: 20 });
  console.log(
    `fleet: ${f.suites} suites at once on one sandbox, each on its own account: ${f.requests} requests in ` +
      `${f.seconds.toFixed(1)} s (${f.perSecond.toFixed(0)}/s), latency p50 ${ms(f.p50)}, p99 ${ms(f.p99)}`,
  );
  const wrong = (f.failures.length + f.leaks.length) / Math.max(1, f.requests);
  console.log(
    `  requests failed or records seen by another suite: ${f.failures.length + f.leaks.length}` +
      target('fleet of 50 suites: requests failed or seen across accounts', wrong, 0, { percent: true }),
  );
  const s = await snapshotTimes();
  console.log(`snapshot of an account of ${s.records} records: save ${ms(s.save)}, load ${ms(s.load)}`);
  // A backlog is measured once per set-up (a sandbox, 2000 events, a listener): three set-ups, medians.
  const runs = [];
  for (let round = 0; round < ROUNDS; round++) runs.push(await listenBacklog({ events: 2000, concurrency: 16 }));
  const listenRate = median(runs.map((r) => r.listenRate));
  const bareRate = median(runs.map((r) => r.bareRate));
  console.log(
    `webhooks listen, a backlog of 2000 events (handler down, then back), median of ${ROUNDS}: ` +
      `${listenRate.toFixed(0)}/s against a bare loop's ${bareRate.toFixed(0)}/s, 16 at once: ` +
      `${(listenRate / bareRate).toFixed(2)}x (runs: ${runs.map((r) => r.ratio.toFixed(2)).join(', ')})` +
      target('listen backlog vs a bare POST loop', listenRate / bareRate, 0.5, { atLeast: true }),
  );
}

/** `settlements match` of a year's statement per format, in a process of its own (it prints its lines). */
export function bankMatch() {
  const r = spawnSync(process.execPath, [BANK], { encoding: 'utf8', env: process.env });
  for (const line of r.stdout.split('\n').filter(Boolean)) console.log(line);
  if (r.status !== 0) throw new Error(`bank match bench failed: ${r.stderr}`);
}
