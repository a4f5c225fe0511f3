/* global fetch, performance */
// The bare loop `webhooks listen` is measured against, in a process of its own as every contender is:
// `concurrency` workers POSTing the bodies of BENCH_ITEMS (NDJSON: body in base64, the headers a
// delivery carries) to BENCH_URL. Prints the milliseconds all of them took.
import { readFileSync } from 'node:fs';

const items = readFileSync(process.env.BENCH_ITEMS, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));
const url = process.env.BENCH_URL;
// As warm as the listener it is compared with, which has been POSTing (to a handler that was down):
// fetch's HTTP client loaded and a connection made before the clock starts.
await (await fetch(url)).arrayBuffer();
let next = 0;
const t = performance.now();
const worker = async () => {
  while (next < items.length) {
    const { body, headers } = items[next++];
    const res = await fetch(url, { method: 'POST', body: Buffer.from(body, 'base64'), headers });
    await res.arrayBuffer();
  }
};
await Promise.all(Array.from({ length: Number(process.env.BENCH_CONCURRENCY) }, worker));
process.stdout.write(`${performance.now() - t}\n`);
