/* global fetch, performance */
// Bulk capture on one Node line: payctl against xargs+curl and a bare undici loop, and the sandbox's own
// throughput.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN, CONCURRENCY, N, ROUNDS, env, home, median, ms, runChild, sandbox, target, timeAsync } from './common.mjs';

const BARE = fileURLToPath(new URL('./bare-undici.mjs', import.meta.url));

export async function bulk() {
  const sb = await sandbox();
  const { info } = sb;
  const curlConfig = join(home, 'curl.conf');
  // Credentials for curl in a config file, not argv (ps would show them).
  writeFileSync(
    curlConfig,
    `user = "${info.key_id}:${info.key_secret}"\nheader = "content-type: application/json"\ndata = "{\\"amount\\":50000,\\"currency\\":\\"INR\\"}"\nsilent\nshow-error\nfail\noutput = "/dev/null"\n`,
    { mode: 0o600 },
  );
  const payEnv = {
    ...env,
    PAYCTL_BASE_URL: info.base_url,
    PAYCTL_KEY_ID: info.key_id,
    PAYCTL_KEY_SECRET: info.key_secret,
  };
  const contenders = {
    'xargs -P16 curl': (ids) =>
      runChild(
        'sh',
        ['-c', `xargs -P ${CONCURRENCY} -I{} curl -K "${curlConfig}" "${info.base_url}/payments/{}/capture"`],
        { input: ids.join('\n') },
      ),
    'bare undici loop': (ids) =>
      runChild(process.execPath, [BARE], {
        env: {
          ...env,
          BENCH_BASE_URL: info.base_url,
          BENCH_KEY_ID: info.key_id,
          BENCH_KEY_SECRET: info.key_secret,
          BENCH_CONCURRENCY: String(CONCURRENCY),
        },
        input: ids.join('\n'),
      }),
    payctl: (ids) => {
      const csv = `payment_id,amount,currency\n${ids.map((id) => `${id},50000,INR`).join('\n')}\n`;
      return runChild(
        process.execPath,
        [
          BIN,
          'payments',
          'capture',
          '--input',
          '-',
          '--yes',
          '-o',
          'ndjson',
          '--concurrency',
          String(CONCURRENCY),
          '--journal',
          join(home, `j-${Date.now()}.ndjson`),
        ],
        { env: payEnv, input: csv },
      );
    },
  };
  const times = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order each round so no contender always runs first (or on a warmer database).
    const names = Object.keys(contenders);
    const order = names.slice(round % names.length).concat(names.slice(0, round % names.length));
    for (const name of order) {
      const { payment_ids: ids } = await sb.admin('/seed', { authorized: N });
      times[name].push(await timeAsync(() => contenders[name](ids)));
      const stats = await (
        await fetch(`${new URL(info.base_url).origin}/_sandbox/stats`, {
          headers: { authorization: 'Basic ' + Buffer.from(`${info.key_id}:${info.key_secret}`).toString('base64') },
        })
      ).json();
      const captured = ids.filter((id) => stats.applied.captures[id] === 1).length;
      if (captured !== N) throw new Error(`${name}: only ${captured} of ${N} captured`);
    }
  }
  sb.stop();
  const med = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
  console.log(
    `bulk capture of ${N} payments on Node ${process.versions.node}, concurrency ${CONCURRENCY}, median of ${ROUNDS} rounds (each contender and the sandbox in their own processes)`,
  );
  for (const [k, v] of Object.entries(med))
    console.log(
      `  ${k.padEnd(18)} ${ms(v)}  (${(N / (v / 1000)).toFixed(0)} captures/s)  runs: ${times[k].map((t) => t.toFixed(0)).join(', ')}`,
    );
  const vsCurl = med['xargs -P16 curl'] / med.payctl;
  const vsBare = med['bare undici loop'] / med.payctl;
  const curlMet = target('bulk capture: as fast as xargs+curl', vsCurl, 5, { atLeast: true });
  console.log(`  payctl is ${vsCurl.toFixed(2)}x as fast as xargs+curl (target >= 5x${curlMet})`);
  const bareMet = target('bulk capture: as fast as a bare undici loop', vsBare, 0.9, { atLeast: true });
  console.log(`  payctl is ${vsBare.toFixed(2)}x as fast as the bare undici loop (target >= 0.9x${bareMet})`);
  return { vsCurl, vsBare };
}

/**
 * The sandbox's own throughput on its SQLite store (node:sqlite, WAL, one transaction per write): GET
 * /payments/:id and POST /orders at concurrency 16 for a fixed number of requests each.
 */
export async function sandboxThroughput() {
  const { Pool } = await import('undici');
  const sb = await sandbox();
  const { payment_ids: ids } = await sb.admin('/seed', { authorized: 500 });
  const url = new URL(sb.info.base_url);
  const pool = new Pool(url.origin, { connections: CONCURRENCY });
  const headers = {
    authorization: 'Basic ' + Buffer.from(`${sb.info.key_id}:${sb.info.key_secret}`).toString('base64'),
    'content-type': 'application/json',
  };
  const drive = async (total, request) => {
    let next = 0;
    const t = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < total) {
          const i = next++;
          const res = await pool.request({ ...request(i), headers });
          await res.body.text();
          if (res.statusCode !== 200) throw new Error(`sandbox answered ${res.statusCode}`);
        }
      }),
    );
    return total / ((performance.now() - t) / 1000);
  };
  const gets = await drive(10_000, (i) => ({ method: 'GET', path: `${url.pathname}/payments/${ids[i % ids.length]}` }));
  const posts = await drive(5_000, (i) => ({
    method: 'POST',
    path: `${url.pathname}/orders`,
    body: JSON.stringify({ amount: 1000 + i, currency: 'INR', receipt: `bench-${i}` }),
  }));
  await pool.close();
  sb.stop();
  console.log(`sandbox on Node ${process.versions.node}, concurrency ${CONCURRENCY} (file database, WAL)`);
  console.log(`  GET /payments/:id  ${gets.toFixed(0).padStart(6)} requests/s`);
  console.log(`  POST /orders       ${posts.toFixed(0).padStart(6)} requests/s`);
  return { gets, posts };
}
