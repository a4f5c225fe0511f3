// Peak memory of validating a 1,000,000-row bulk refund input with --dry-run, from a file and from
// stdin (`npm run build` first). Prints one line per case; no timing assertions anywhere.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RSS, measuredRun } from './measured.mjs';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const BIN = fileURLToPath(new URL('../../bin/payctl.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'payctl-bench-input-'));
const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const id = (n) => {
  let s = '';
  for (let i = 0; i < 14; i++, n = Math.floor(n / 62)) s = B62[n % 62] + s;
  return `pay_${s}`;
};

async function writeInput(path, header, row) {
  const out = createWriteStream(path);
  if (header) out.write(header);
  for (let i = 0; i < ROWS; i++) if (!out.write(row(i))) await new Promise((r) => out.once('drain', r));
  await new Promise((r) => out.end(r));
}

function measure(args, stdinFile) {
  const { env, figures } = measuredRun(dir, 'http://127.0.0.1:9/v1');
  const started = Date.now();
  return new Promise((resolve, reject) => {
    // stdin through a real pipe from `cat`, as a shell pipeline would give it.
    const q = (t) => `'${t.replace(/'/g, `'\\''`)}'`;
    const command = [process.execPath, '--require', RSS, BIN, ...args].map(q).join(' ');
    const child = stdinFile
      ? spawn('sh', ['-c', `cat ${q(stdinFile)} | ${command}`], { env, stdio: ['ignore', 'ignore', 'pipe'] })
      : spawn(process.execPath, ['--require', RSS, BIN, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`exit ${code}: ${err}`));
      resolve({ mib: figures().mib, seconds: (Date.now() - started) / 1000 });
    });
  });
}

try {
  const csv = join(dir, 'refunds.csv');
  const ndjson = join(dir, 'refunds.ndjson');
  await writeInput(csv, 'payment_id,amount\n', (i) => `${id(i)},1000\n`);
  await writeInput(ndjson, '', (i) => `{"payment_id":"${id(i)}","amount":1000}\n`);
  const cases = [
    ['CSV from a file', ['payments', 'refund', '--input', csv, '--dry-run', '-o', 'ndjson'], undefined],
    ['CSV from stdin', ['payments', 'refund', '--input', '-', '--dry-run', '-o', 'ndjson'], csv],
    ['NDJSON from a file', ['payments', 'refund', '--input', ndjson, '--dry-run', '-o', 'ndjson'], undefined],
    ['NDJSON from stdin', ['payments', 'refund', '--input', '-', '--dry-run', '-o', 'ndjson'], ndjson],
  ];
  for (const [name, args, stdin] of cases) {
    const r = await measure(args, stdin);
    console.log(`${ROWS} rows, ${name}, --dry-run: peak RSS ${r.mib} MiB, ${r.seconds.toFixed(1)} s`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
