/* global performance */
// Matching a year's bank statement against a year's settlements (`npm run build` first): a loopback stand-in
// lists 365 settlements (one a day, as the service makes them), and each format's statement of the year
// (the settlements as credits on their value dates among ENTRIES_PER_DAY other entries a day) is matched
// with `payctl settlements match`. Prints entries per second and peak memory per format; asserts nothing.
//   node test/bench/bank-match.mjs [--json]
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RSS, measuredRun } from './measured.mjs';

const PER_DAY = Number(process.env.ENTRIES_PER_DAY ?? 120);
const BIN = fileURLToPath(new URL('../../bin/payctl.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'payctl-bench-bank-'));
const IST = 19_800;
const DAY = 86_400;

// A seeded generator, so every run matches the same year.
let seed = 42;
const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
const B36 = '0123456789abcdefghijklmnopqrstuvwxyz';

const start = Date.UTC(2031, 0, 1) / 1000 - IST;
const settlements = Array.from({ length: 365 }, (_, d) => {
  const at = start + d * DAY + 11 * 3600;
  const suffix = Array.from({ length: 6 }, () => B36[Math.floor(rand() * 36)]).join('');
  return {
    id: `setl_bench${String(d).padStart(6, '0')}`,
    entity: 'settlement',
    amount: 100_000 + Math.floor(rand() * 50_000_000),
    status: 'processed',
    fees: 0,
    tax: 0,
    utr: `${at}${suffix}`,
    created_at: at,
  };
});

const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const q = (k, d) => (url.searchParams.has(k) ? Number(url.searchParams.get(k)) : d);
  const items = settlements
    .filter((s) => s.created_at >= q('from', 0) && s.created_at <= q('to', Infinity))
    .reverse()
    .slice(q('skip', 0), q('skip', 0) + q('count', 10));
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ entity: 'collection', count: items.length, items }));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));

/** The year as the bank saw it: oldest first, each line [day, signed paise, reference, narration]. */
function* year() {
  const day = (t) => new Date((t + IST) * 1000).toISOString().slice(0, 10);
  const monday = (d) => {
    const w = new Date(`${d}T00:00:00Z`).getUTCDay();
    return w === 6 || w === 0 ? day(Date.parse(`${d}T00:00:00Z`) / 1000 - IST + (w === 6 ? 2 : 1) * DAY) : d;
  };
  const credits = new Map();
  for (const s of settlements) {
    const v = monday(day(s.created_at));
    credits.set(v, [...(credits.get(v) ?? []), s]);
  }
  for (let d = 0; d < 370; d++) {
    const date = day(start + d * DAY);
    for (const [i, s] of (credits.get(date) ?? []).entries())
      yield [
        date,
        s.amount,
        s.utr.toUpperCase(),
        [`NEFT-${s.utr.toUpperCase()}-RAZORPAY SOFTWARE PVT LTD`, `RTGS/${s.utr.toUpperCase()}/RAZORPAY`][i % 2],
      ];
    for (let i = 0; i < PER_DAY; i++) {
      const amount = 100 + Math.floor(rand() * 1_000_000);
      yield i % 2
        ? [date, -amount, `UPI${d}${i}`, `UPI/DR/${d}${i}/VENDOR PAYMENT`]
        : [date, amount, `IMPS${d}${i}`, `IMPS-${d}${i}-CUSTOMER TRANSFER`];
    }
  }
}

const OPEN = 10_000_000_000;
const money = (p, sep = '.') => `${Math.floor(Math.abs(p) / 100)}${sep}${String(Math.abs(p) % 100).padStart(2, '0')}`;

async function write(file, head, line, tail) {
  const out = createWriteStream(file);
  let chunk = head();
  let balance = OPEN;
  let entries = 0;
  let last;
  for (const e of year()) {
    if (last && e[0] !== last) chunk += tail(last, balance, true);
    last = e[0];
    balance += e[1];
    entries++;
    chunk += line(e, balance);
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
      chunk = '';
    }
  }
  out.end(chunk + tail(last, balance, false));
  await new Promise((r) => out.once('finish', r));
  return entries;
}

const yymmdd = (d) => d.slice(2).replace(/-/g, '');
const formats = {
  // One MT940 message a day, as banks send them.
  mt940: () =>
    write(
      join(dir, 'year.sta'),
      () => `:20:D310101\r\n:25:HDFC0000001/50200012345678\r\n:28C:1/1\r\n:60F:C310101INR${money(OPEN, ',')}\r\n`,
      ([d, a, ref, text]) =>
        `:61:${yymmdd(d)}${yymmdd(d).slice(2)}${a < 0 ? 'D' : 'C'}${money(a, ',')}NTRF${ref.slice(0, 16)}//B${yymmdd(d)}\r\n:86:${text}\r\n`,
      (d, b, more) =>
        `:62F:C${yymmdd(d)}INR${money(b, ',')}\r\n-\r\n` +
        (more
          ? `:20:D${yymmdd(d)}\r\n:25:HDFC0000001/50200012345678\r\n:28C:1/1\r\n:60F:C${yymmdd(d)}INR${money(b, ',')}\r\n`
          : ''),
    ),
  camt053: () => {
    const ntry = ([d, a, ref, text]) =>
      `<Ntry><Amt Ccy="INR">${money(a)}</Amt><CdtDbtInd>${a < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>` +
      `<BookgDt><Dt>${d}</Dt></BookgDt><ValDt><Dt>${d}</Dt></ValDt><AcctSvcrRef>${ref}</AcctSvcrRef>` +
      `<NtryDtls><TxDtls><RmtInf><Ustrd>${text}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>\n`;
    // The closing balance goes before the entries in camt.053; it is written once the year is known.
    return write(
      join(dir, 'year.xml'),
      () =>
        '<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt><Id>Y2031</Id>\n' +
        `<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="INR">${money(OPEN)}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2031-01-01</Dt></Dt></Bal>\n`,
      ntry,
      (d, b, more) =>
        more
          ? ''
          : `<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="INR">${money(b)}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>${d}</Dt></Dt></Bal></Stmt></BkToCstmrStmt></Document>\n`,
    );
  },
  csv: () => {
    const dmy = (d) => `${d.slice(8)}/${d.slice(5, 7)}/${d.slice(2, 4)}`;
    return write(
      join(dir, 'year.csv'),
      () => 'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance\n',
      ([d, a, ref, text], b) =>
        `${dmy(d)},${text},${ref},${dmy(d)},${a < 0 ? money(a) : ''},${a > 0 ? money(a) : ''},${money(b)}\n`,
      () => '',
    );
  },
};
const files = { mt940: 'year.sta', camt053: 'year.xml', csv: 'year.csv' };

function match(file) {
  const { env, figures } = measuredRun(dir, `http://127.0.0.1:${server.address().port}/v1`);
  const started = performance.now();
  const args = [
    '--require',
    RSS,
    BIN,
    'settlements',
    'match',
    '--bank',
    file,
    '--from',
    '2031-01-01',
    '--to',
    '2031-12-31',
    '--tz',
    'Asia/Kolkata',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`exit ${code}: ${err}`));
      resolve({ seconds: (performance.now() - started) / 1000, ...figures(), said: err });
    });
  });
}

const results = [];
try {
  for (const [format, make] of Object.entries(formats)) {
    const entries = await make();
    const file = join(dir, files[format]);
    const r = await match(file);
    const mb = statSync(file).size / 1e6;
    if (!/in the bank: 365 /.test(r.said)) throw new Error(`${format}: not every settlement matched:\n${r.said}`);
    results.push({ format, entries, mb: Math.round(mb * 10) / 10, ...r, perSecond: Math.round(entries / r.seconds) });
    console.log(
      `bank match, a year as ${format.padEnd(7)} (${entries} entries, ${mb.toFixed(1)} MB, 365 settlements): ` +
        `${r.seconds.toFixed(2)} s (${r.cpu.toFixed(2)} s CPU), ${Math.round(entries / r.seconds)} entries/s ` +
        `(${Math.round(entries / r.cpu)} per CPU second), peak RSS ${r.mib} MiB`,
    );
  }
  if (process.argv.includes('--json')) console.log(JSON.stringify(results.map(({ said: _, ...r }) => r)));
} finally {
  server.close();
  rmSync(dir, { recursive: true, force: true });
}
