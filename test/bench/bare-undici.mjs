// The floor for bulk capture: the same requests over one undici pool, no journal, no checks.
import { Pool } from 'undici';

export async function bareLoop({ baseUrl, keyId, keySecret, ids, concurrency }) {
  const url = new URL(baseUrl);
  const pool = new Pool(url.origin, { connections: concurrency });
  const headers = {
    authorization: 'Basic ' + Buffer.from(`${keyId}:${keySecret}`).toString('base64'),
    'content-type': 'application/json',
  };
  const body = JSON.stringify({ amount: 50000, currency: 'INR' });
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      const res = await pool.request({ path: `${url.pathname}/payments/${id}/capture`, method: 'POST', headers, body });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`capture ${id}: HTTP ${res.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await pool.close();
}

// Run as its own process (as payctl and curl are): node bare-undici.mjs < ids, credentials from the environment.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  const ids = Buffer.concat(chunks).toString().split('\n').filter(Boolean);
  await bareLoop({
    baseUrl: process.env.BENCH_BASE_URL,
    keyId: process.env.BENCH_KEY_ID,
    keySecret: process.env.BENCH_KEY_SECRET,
    ids,
    concurrency: Number(process.env.BENCH_CONCURRENCY),
  });
}
