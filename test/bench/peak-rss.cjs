// Preloaded with --require: on exit, writes the process's peak resident memory (KiB) to BENCH_RSS_FILE.
const { appendFileSync } = require('node:fs');
const file = process.env.BENCH_RSS_FILE;
if (file) process.on('exit', () => appendFileSync(file, `${process.resourceUsage().maxRSS}\n`));
