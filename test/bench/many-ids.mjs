/* global performance */
// `payments get --input` of many ids in one process against a shell loop of single `payments get` calls,
// one process per id, as a script without it is written. The loop is timed on a sample of ids and scaled
// to the whole list (at ~150 ms a process, a full loop of 1,000 would take minutes of the bench).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Side by side on this Node line: `ids` payment ids, payctl reading them all over its one connection
 * pool, against `sample` of them read one process each by `sh` in a loop, scaled to `ids`. `target`
 * records the ratio against `limit` (at least).
 */
export async function manyIds({ sandbox, target, BIN, env, home, ids = 1000, sample = 50, limit = 20, rounds = 3 }) {
  const sb = await sandbox();
  const seeded = [];
  while (seeded.length < ids) {
    const batch = Math.min(500, ids - seeded.length);
    seeded.push(...(await sb.admin('/seed', { authorized: batch })).payment_ids);
  }
  const file = join(home, 'ids.txt');
  writeFileSync(file, `${seeded.join('\n')}\n`);
  const loopFile = join(home, 'loop-ids.txt');
  writeFileSync(loopFile, `${seeded.slice(0, sample).join('\n')}\n`);
  const runEnv = {
    ...env,
    PAYCTL_BASE_URL: sb.info.base_url,
    PAYCTL_KEY_ID: sb.info.key_id,
    PAYCTL_KEY_SECRET: sb.info.key_secret,
  };
  const time = (cmd, argv) => {
    const t = performance.now();
    const r = spawnSync(cmd, argv, { env: runEnv, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} failed (${r.status}): ${r.stderr}`);
    return performance.now() - t;
  };
  // payctl as installed: its bin, through its shebang, on the Node first on PATH.
  const many = () => time(BIN, ['payments', 'get', '--input', file, '-o', 'ndjson']);
  const loop = () =>
    time('sh', [
      '-c',
      `while read -r id; do "${BIN}" payments get "$id" -o json > /dev/null || exit 1; done < "${loopFile}"`,
    ]);
  many();
  const manyMs = [];
  const loopMs = [];
  for (let i = 0; i < rounds; i++) {
    manyMs.push(many());
    loopMs.push((loop() * ids) / sample);
  }
  sb.stop();
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const [m, l] = [median(manyMs), median(loopMs)];
  const ratio = l / m;
  const met = target(`payments get --input of ${ids} ids vs a shell loop`, ratio, limit, { atLeast: true });
  console.log(`many ids on Node ${process.versions.node} (median of ${rounds} rounds)`);
  console.log(`  payments get --input ${ids} ids   ${m.toFixed(0).padStart(7)} ms`);
  console.log(
    `  shell loop of payments get     ${l.toFixed(0).padStart(7)} ms  (${sample} ids timed, scaled to ${ids})  ` +
      `${ratio.toFixed(1)}x faster (target >= ${limit}x${met})`,
  );
}
