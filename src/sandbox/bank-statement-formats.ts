import type { Statement } from './bank-statement';

/* A month's statement as banks write each format: SWIFT MT940, ISO 20022 camt.053.001.08, HDFC's netbanking CSV. */

const swiftDate = (day: string) => day.slice(2).replace(/-/g, '');
const swiftAmount = (paise: number) =>
  `${Math.floor(Math.abs(paise) / 100)},${String(Math.abs(paise) % 100).padStart(2, '0')}`;
const mark = (paise: number) => (paise < 0 ? 'D' : 'C');
const decimal = (paise: number) =>
  `${Math.floor(Math.abs(paise) / 100)}.${String(Math.abs(paise) % 100).padStart(2, '0')}`;
const lastDay = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y!, m!, 0)).toISOString().slice(0, 10);
};

/** SWIFT's character set for free text (x): letters, digits, space and / - ? : ( ) . , ' +. */
const swiftText = (text: string) => text.replace(/[^A-Za-z0-9 /\-?:().,'+]/g, ' ');

export function writeMt940(s: Statement): string {
  const first = `${s.month}-01`;
  const last = lastDay(s.month);
  const out = [
    `:20:STMT${s.month.replace('-', '')}`,
    `:25:HDFC0000001/${s.account}`,
    `:28C:${Number(s.month.slice(5))}/1`,
    `:60F:${mark(s.opening)}${swiftDate(first)}INR${swiftAmount(s.opening)}`,
  ];
  for (const l of s.lines) {
    const ref = (l.reference || 'NONREF').slice(0, 16);
    out.push(
      `:61:${swiftDate(l.date)}${swiftDate(l.date).slice(2)}${mark(l.amount)}${swiftAmount(l.amount)}NTRF${ref}//${l.bankRef.slice(0, 16)}`,
    );
    out.push(`:86:${swiftText(l.narration).slice(0, 65)}`);
  }
  out.push(`:62F:${mark(s.closing)}${swiftDate(last)}INR${swiftAmount(s.closing)}`);
  out.push('-');
  return `${out.join('\r\n')}\r\n`;
}

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function writeCamt053(s: Statement): string {
  const first = `${s.month}-01`;
  const last = lastDay(s.month);
  const id = `STMT${s.month.replace('-', '')}`;
  const bal = (code: string, paise: number, day: string) =>
    `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="INR">${decimal(paise)}</Amt>` +
    `<CdtDbtInd>${paise < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>${day}</Dt></Dt></Bal>`;
  const entries = s.lines.map(
    (l) =>
      `<Ntry><Amt Ccy="INR">${decimal(l.amount)}</Amt><CdtDbtInd>${l.amount < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd>` +
      `<Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>${l.date}</Dt></BookgDt><ValDt><Dt>${l.date}</Dt></ValDt>` +
      `<AcctSvcrRef>${xml(l.bankRef)}</AcctSvcrRef><BkTxCd><Prtry><Cd>${l.amount < 0 ? 'DR' : 'CR'}</Cd></Prtry></BkTxCd>` +
      `<NtryDtls><TxDtls><Refs>${l.reference ? `<EndToEndId>${xml(l.reference)}</EndToEndId>` : '<EndToEndId>NOTPROVIDED</EndToEndId>'}</Refs>` +
      `<RmtInf><Ustrd>${xml(l.narration.slice(0, 140))}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">',
    '<BkToCstmrStmt>',
    `<GrpHdr><MsgId>${id}</MsgId><CreDtTm>${last}T23:59:59+05:30</CreDtTm></GrpHdr>`,
    `<Stmt><Id>${id}</Id><ElctrncSeqNb>${Number(s.month.slice(5))}</ElctrncSeqNb><CreDtTm>${last}T23:59:59+05:30</CreDtTm>`,
    `<FrToDt><FrDtTm>${first}T00:00:00+05:30</FrDtTm><ToDtTm>${last}T23:59:59+05:30</ToDtTm></FrToDt>`,
    `<Acct><Id><Othr><Id>${s.account}</Id></Othr></Id><Ccy>INR</Ccy><Svcr><FinInstnId><BICFI>HDFCINBBXXX</BICFI></FinInstnId></Svcr></Acct>`,
    bal('OPBD', s.opening, first),
    bal('CLBD', s.closing, last),
    ...entries,
    '</Stmt>',
    '</BkToCstmrStmt>',
    '</Document>',
    '',
  ].join('\n');
}

/** `1,00,000.00`: rupees grouped as Indian banks print them. */
export function indianAmount(paise: number): string {
  const whole = String(Math.floor(Math.abs(paise) / 100));
  const head = whole.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',');
  const grouped = head ? `${head},${whole.slice(-3)}` : whole;
  return `${paise < 0 ? '-' : ''}${grouped}.${String(Math.abs(paise) % 100).padStart(2, '0')}`;
}

const ddmmyy = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(2, 4)}`;
const csvCell = (text: string) => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

export function writeCsv(s: Statement): string {
  const out = [
    'HDFC BANK Ltd.,,,,,,',
    `Account No : ${s.account},,,,,,`,
    `Statement From : ${ddmmyy(`${s.month}-01`)} To : ${ddmmyy(lastDay(s.month))},,,,,,`,
    'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance',
  ];
  let balance = s.opening;
  for (const l of s.lines) {
    balance += l.amount;
    const amount = csvCell(indianAmount(Math.abs(l.amount)));
    out.push(
      [
        ddmmyy(l.date),
        csvCell(l.narration),
        csvCell(l.reference),
        ddmmyy(l.date),
        l.amount < 0 ? amount : '',
        l.amount < 0 ? '' : amount,
        csvCell(indianAmount(balance)),
      ].join(','),
    );
  }
  return `${out.join('\n')}\n`;
}
