// The floor for an export: a customer's statement walked page by page with node:http (keep-alive),
// each entry written as a JSON line to BENCH_OUT. No checks, no formatting.
import { createWriteStream } from 'node:fs';
import http from 'node:http';

const base = new URL(process.env.BENCH_BASE_URL);
const auth = 'Basic ' + Buffer.from(`${process.env.BENCH_KEY_ID}:${process.env.BENCH_KEY_SECRET}`).toString('base64');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const out = createWriteStream(process.env.BENCH_OUT);

function page(skip) {
  return new Promise((resolve, reject) => {
    const path = `${base.pathname}/customers/${process.env.BENCH_CUSTOMER}/statement?count=100&skip=${skip}`;
    http
      .get({ host: base.hostname, port: base.port, path, agent, headers: { authorization: auth } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(JSON.parse(text).items)
            : reject(new Error(`HTTP ${res.statusCode}: ${text}`)),
        );
      })
      .on('error', reject);
  });
}

for (let skip = 0; ;) {
  const items = await page(skip);
  let text = '';
  for (const item of items) text += `${JSON.stringify(item)}\n`;
  if (!out.write(text)) await new Promise((r) => out.once('drain', r));
  skip += items.length;
  if (items.length < 100) break;
}
await new Promise((r) => out.end(r));
agent.destroy();
