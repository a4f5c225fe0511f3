// A payctl run measured by peak-rss.cjs (preloaded with --require): the environment that points it at a
// service with bench credentials and at a fresh file for its figures, and the reading of that file.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RSS = fileURLToPath(new URL('./peak-rss.cjs', import.meta.url));

/** `dir` is PAYCTL_HOME and holds the figures' file; `figures()` is the peak RSS (MiB) and CPU seconds. */
export function measuredRun(dir, baseUrl) {
  const rssFile = join(dir, `rss-${Math.random()}`);
  writeFileSync(rssFile, '');
  const env = {
    ...process.env,
    PAYCTL_HOME: dir,
    PAYCTL_KEY_ID: 'rzp_test_bench',
    PAYCTL_KEY_SECRET: 'bench-secret-bench',
    PAYCTL_BASE_URL: baseUrl,
    BENCH_RSS_FILE: rssFile,
  };
  const figures = () => {
    const [kib, cpuMicros] = readFileSync(rssFile, 'utf8').trim().split(/\s+/).map(Number);
    return { mib: Math.round(kib / 1024), cpu: cpuMicros / 1e6 };
  };
  return { env, figures };
}
