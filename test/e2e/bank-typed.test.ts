import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { beforeAll, describe, expect, it } from 'vitest';
import { advanceClockTo, paidAtCheckout, run, sandboxForFile, scratchDir } from './harness';
import { csvRows } from './exports-workbook';

// Statements typed here as banks send them (not written by payctl): an MT940 with its SWIFT blocks, a
// camt.053, an ICICI-style netbanking CSV. Each carries a UTR whole in its reference, one behind a rail's
// prefix in the narration, one cut to 12 characters, one glued to its prefix; settlements made on a
// Saturday and a Sunday are value-dated the Monday. May 2031 on the sandbox clock: the 1st is a Thursday.
const ZONE = 'Asia/Kolkata';
const dir = scratchDir('payctl-bank-typed-');
const sb = sandboxForFile();
interface Settlement {
  id: string;
  utr: string;
  amount: number;
  created_at: number;
}
let s: Settlement[] = [];

const advanceTo = (to: DateTime) => advanceClockTo(sb, to);

beforeAll(async () => {
  const may = DateTime.fromISO('2031-05-01T10:00:00', { zone: ZONE });
  // Paid Thu 1, Fri 2, Mon 5, Tue 6: settled (T+2) Sat 3, Sun 4, Wed 7, Thu 8.
  for (const day of [0, 1, 4, 5]) {
    await advanceTo(may.plus({ days: day }));
    await paidAtCheckout(sb, 150_000 + day * 1_111);
  }
  await advanceTo(may.plus({ days: 19 }));
  const listed = await run(
    ['-o', 'json', 'settlements', 'list', '--from', '2031-05-01', '--to', '2031-05-31', '--tz', ZONE],
    { env: sb.env },
  );
  s = (JSON.parse(listed.stdout) as Settlement[]).sort((a, b) => a.created_at - b.created_at);
  expect(s).toHaveLength(4);
}, 60_000);

const rupees = (p: number) => `${Math.floor(p / 100)}.${String(p % 100).padStart(2, '0')}`;
const comma = (p: number) => rupees(p).replace('.', ',');
const indian = (p: number) => {
  const [w, f] = rupees(p).split('.');
  const head = w!.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',');
  return `${head ? `${head},` : ''}${w!.slice(-3)}.${f}`;
};
const U = (i: number) => s[i]!.utr.toUpperCase();
const OPEN = 100_000_000;

/** The month as the bank saw it: value date, signed paise, reference, narration. */
function entries(): Array<[string, number, string, string]> {
  return [
    ['2031-05-02', -2_500_000, 'CHQ000123', 'CHQ PAID-000123-SHARMA STATIONERS'],
    ['2031-05-05', s[0]!.amount, U(0), 'NEFT CR-RAZORPAY SOFTWARE PVT LTD'],
    ['2031-05-05', s[1]!.amount, 'HDFCR31050500017', `RTGS/${U(1)}/RAZORPAY SOFTWARE PVT LTD`],
    ['2031-05-06', 4_500_000, 'AXISN31050612', 'NEFT-AXISN31050612-GUPTA ENTERPRISES'],
    ['2031-05-07', s[2]!.amount, U(2).slice(0, 12), `IMPS ${U(2).slice(0, 12)} RZP SETTLEMENT`],
    ['2031-05-08', s[3]!.amount, `NEFTN${U(3)}`, 'RAZORPAY SOFTWARE PVT LTD'],
  ];
}
const closing = () => OPEN + entries().reduce((t, e) => t + e[1], 0);

function mt940(): string {
  const lines = [
    '{1:F01HDFCINBBAXXX0000000000}{2:O9401200310520HDFCINBBAXXX00000000003105201200N}{4:',
    ':20:940S310520',
    ':25:HDFC0000001/50200012345678',
    ':28C:00005/001',
    `:60F:C310430INR${comma(OPEN)}`,
  ];
  for (const [date, amount, ref, text] of entries()) {
    const d = date.slice(2).replace(/-/g, '');
    lines.push(
      `:61:${d}${d.slice(2)}${amount < 0 ? 'D' : 'C'}${comma(Math.abs(amount))}NTRF${ref.slice(0, 16)}//${d}0001`,
    );
    lines.push(`:86:${ref.length > 16 ? `${ref} ` : ''}${text}`);
  }
  lines.push(`:62F:C310520INR${comma(closing())}`, '-}');
  return lines.join('\r\n') + '\r\n';
}

function camt(): string {
  const bal = (cd: string, p: number, d: string) =>
    `<Bal><Tp><CdOrPrtry><Cd>${cd}</Cd></CdOrPrtry></Tp><Amt Ccy="INR">${rupees(p)}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>${d}</Dt></Dt></Bal>`;
  const ntry = ([date, amount, ref, text]: [string, number, string, string]) => `
      <Ntry>
        <Amt Ccy="INR">${rupees(Math.abs(amount))}</Amt>
        <CdtDbtInd>${amount < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>${date}</Dt></BookgDt>
        <ValDt><Dt>${date}</Dt></ValDt>
        <AcctSvcrRef>${ref}</AcctSvcrRef>
        <NtryDtls><TxDtls><RmtInf><Ustrd>${text}</Ustrd></RmtInf></TxDtls></NtryDtls>
      </Ntry>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>053-2031-05-20</MsgId><CreDtTm>2031-05-20T18:00:00+05:30</CreDtTm></GrpHdr>
    <Stmt>
      <Id>053-50200012345678-20310520</Id>
      <CreDtTm>2031-05-20T18:00:00+05:30</CreDtTm>
      <Acct><Id><Othr><Id>50200012345678</Id></Othr></Id><Ccy>INR</Ccy></Acct>
      ${bal('OPBD', OPEN, '2031-05-01')}
      ${bal('CLBD', closing(), '2031-05-20')}${entries().map(ntry).join('')}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;
}

function csv(): string {
  const dmy = (d: string) => `${d.slice(8)}/${d.slice(5, 7)}/${d.slice(0, 4)}`;
  let bal = OPEN;
  const rows = entries().map(([date, amount, ref, text], i) => {
    bal += amount;
    const out = amount < 0 ? `"${indian(-amount)}"` : '';
    const inn = amount > 0 ? `"${indian(amount)}"` : '';
    return `${i + 1},${dmy(date)},${dmy(date)},${ref},${text},${out},${inn},"${indian(bal)}"`;
  });
  return [
    'ICICI Bank Limited,,,,,,,',
    'Account Number,50200012345678 ( INR ) - ACME PAYMENTS,,,,,,',
    'Transaction Date from,01/05/2031,to,20/05/2031,,,,',
    '',
    'S No.,Value Date,Transaction Date,Cheque Number,Transaction Remarks,Withdrawal Amount (INR ),Deposit Amount (INR ),Balance (INR )',
    ...rows,
    '',
    'Legends Used in Account Statement,,,,,,,',
  ].join('\r\n');
}

describe('statements typed as banks send them', () => {
  it.each([
    ['MT940', 'may.sta', mt940],
    ['camt.053', 'may.xml', camt],
    ['netbanking CSV', 'may.csv', csv],
  ])(
    '%s: every settlement found (whole, prefixed, cut, glued UTRs; weekend value dates), exit 0',
    async (_, name, make) => {
      const file = join(dir, name);
      writeFileSync(file, make());
      const out = join(dir, `${name}.match.csv`);
      const res = await run(
        ['settlements', 'match', '--bank', file, '--month', '2031-05', '--tz', ZONE, '--out', out],
        { env: sb.env },
      );
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toContain('in the bank: 4 (1 by UTR, 2 by reference, 1 by cut UTR)');
      const rows = csvRows(out);
      expect(rows.map((r) => [r.settlement_id, r.matched_by, r.days_apart])).toEqual([
        [s[0]!.id, 'utr', '2'],
        [s[1]!.id, 'reference', '1'],
        [s[2]!.id, 'truncated', '0'],
        [s[3]!.id, 'reference', '0'],
      ]);
      // --all-credits: the two credits that are not the service's become findings.
      const all = await run(['settlements', 'match', '--bank', file, '--month', '2031-05', '--all-credits'], {
        env: sb.env,
      });
      expect(all.code).toBe(1);
      expect(all.stderr.match(/^ {2}unexplained credit: /gm)).toHaveLength(1);
      expect(all.stderr).toContain('GUPTA ENTERPRISES');
    },
  );

  it('any other CSV layout through --columns', async () => {
    const file = join(dir, 'other.csv');
    const body = entries().map(
      ([d, a, ref, text]) => `${d},${text} ${ref},${a < 0 ? rupees(-a) : ''},${a > 0 ? rupees(a) : ''}`,
    );
    writeFileSync(file, ['Posted On,Details,Money Out,Money In', ...body].join('\n'));
    const plain = await run(['settlements', 'match', '--bank', file, '--month', '2031-05'], { env: sb.env });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/^payctl: .*other\.csv: no header row of a netbanking export found.*--columns/);
    const cols = 'date=Posted On,narration=Details,withdrawal=Money Out,deposit=Money In';
    const res = await run(['settlements', 'match', '--bank', file, '--month', '2031-05', '--columns', cols], {
      env: sb.env,
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('in the bank: 4 (0 by UTR, 3 by reference, 1 by cut UTR)');
  });

  it('a statement that does not add up, and a value date past the window, are findings (exit 1)', async () => {
    const off = join(dir, 'off.sta');
    writeFileSync(off, mt940().replace(/:62F:C310520INR[\d,]+/, `:62F:C310520INR${comma(closing() + 100)}`));
    const res = await run(['settlements', 'match', '--bank', off, '--month', '2031-05'], { env: sb.env });
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toMatch(/statement does not add up: .*off\.sta:1: statement 940S310520 .* does not add up: /);
    expect(res.stderr).toContain('but its closing balance is ₹10,25,967.88'.replace('10,25,967.88', '1025967.88'));
    expect(res.stderr).toContain('(more by ₹1.00)');
    expect(res.stderr).toContain('in the bank: 4 ');
    expect(res.stderr).toContain('do not tie out to the settlements of 2031-05: 1 balance');

    const csvOff = join(dir, 'off.csv');
    writeFileSync(
      csvOff,
      csv().replace(/"([\d,]+\.\d\d)"\r\n(\d,\d\d\/05\/2031,\d\d\/05\/2031,AXISN)/, '"1.00"\r\n$2'),
    );
    const bad = await run(['settlements', 'match', '--bank', csvOff, '--month', '2031-05'], { env: sb.env });
    expect(bad.code, bad.stderr).toBe(1);
    expect(bad.stderr).toMatch(
      /off\.csv:8: statement off\.csv does not add up: at line 8 its balance is ₹1\.00 where the entries make it ₹/,
    );

    const late = await run(
      ['settlements', 'match', '--bank', join(dir, 'may.xml'), '--month', '2031-05', '--window', '1'],
      {
        env: sb.env,
      },
    );
    expect(late.code).toBe(1);
    expect(late.stderr).toContain(`value date outside the window: ${s[0]!.id}`);
    expect(late.stderr).toContain("is 2 days from the settlement's day 2031-05-03 (window 0-1)");
  });
});
