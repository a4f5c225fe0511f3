// Preloaded with --require: on exit, writes the process's peak resident memory (KiB) and the CPU time
// it used (user + system, microseconds) to BENCH_RSS_FILE. CPU time moves less than wall time on a
// shared host, so the bench shows both.
const { appendFileSync } = require('node:fs');
const file = process.env.BENCH_RSS_FILE;
if (file)
  process.on('exit', () => {
    const usage = process.resourceUsage();
    appendFileSync(file, `${usage.maxRSS} ${usage.userCPUTime + usage.systemCPUTime}\n`);
  });
