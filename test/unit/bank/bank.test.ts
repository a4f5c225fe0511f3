import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvRecords } from '../../../src/bank/csv-records';
import { knownLayout } from '../../../src/bank/csv-layout';
import { UtrIndex, findUtr } from '../../../src/bank/utr';
import type { BankEntry } from '../../../src/bank/types';
import { bankDay, paise } from '../../../src/bank/values';

const entry = (reference: string, narration = ''): BankEntry => ({
  file: 'f',
  line: 1,
  statement: 's',
  valueDate: '2031-05-05',
  amount: 1,
  credit: true,
  reference,
  narration,
});

describe('amounts and dates as Indian banks write them', () => {
  it('reads Indian grouping, SWIFT commas and refuses what is not an amount', () => {
    expect(paise('1,00,000.00')).toBe(10_000_000);
    expect(paise('12.5')).toBe(1_250);
    expect(paise('250')).toBe(25_000);
    expect(paise('₹ 1,234.05')).toBe(123_405);
    expect(paise('1234,56', ',')).toBe(123_456);
    expect(paise('99,99,99,99,999.99')).toBe(9_999_999_999_999);
    for (const bad of ['', 'abc', '1.234', '1e5', '--5', '1.2.3']) expect(paise(bad)).toBeUndefined();
  });

  it('reads DD/MM/YY, DD/MM/YYYY, DD-MMM-YYYY and ISO; refuses impossible days', () => {
    expect(bankDay('04/03/31')).toBe('2031-03-04');
    expect(bankDay('4/3/2031')).toBe('2031-03-04');
    expect(bankDay('04-Mar-2031')).toBe('2031-03-04');
    expect(bankDay('4 Mar 31')).toBe('2031-03-04');
    expect(bankDay('2031-03-04')).toBe('2031-03-04');
    expect(bankDay('29/02/32')).toBe('2032-02-29');
    for (const bad of ['29/02/31', '31/04/31', '00/01/31', '12/13/31', 'Opening Balance'])
      expect(bankDay(bad)).toBeUndefined();
  });
});

describe('a UTR found in what a bank wrote', () => {
  const index = new UtrIndex(
    [
      { id: 'a', utr: '1940823000pfmtgi' },
      { id: 'b', utr: '1940909400hj1vs3' },
      { id: 'c', utr: 'AXISCN0123456789012345' },
    ],
    (s) => s.utr,
  );
  const found = (ref: string, text = '') => {
    const f = findUtr(index, entry(ref, text));
    return f.kind === 'none'
      ? 'none'
      : f.kind === 'ambiguous'
        ? `ambiguous ${f.candidates.length}`
        : `${f.kind} ${f.item.id}`;
  };

  it('whole, behind a prefix, glued to one, cut to a unique prefix; ambiguous when the cut names no one', () => {
    expect(found('1940823000PFMTGI')).toBe('utr a');
    expect(found('', 'NEFT-1940823000PFMTGI-RAZORPAY')).toBe('reference a');
    expect(found('', 'RTGS/1940909400HJ1VS3/RAZORPAY')).toBe('reference b');
    expect(found('', 'IMPS 1940909400hj1vs3 RZP')).toBe('reference b');
    expect(found('NEFTN1940909400HJ1VS3')).toBe('reference b');
    expect(found('AXISCN0123456789')).toBe('truncated c');
    expect(found('NEFTN19409094')).toBe('truncated b');
    expect(found('194082')).toBe('ambiguous 1');
    expect(found('1940')).toBe('none');
    expect(found('HDFC0001234', 'SALARY JULY')).toBe('none');
  });
});

describe('netbanking CSV', () => {
  it('knows the header rows of HDFC, ICICI, SBI and Axis exports', () => {
    const hdfc = knownLayout([
      'Date',
      'Narration',
      'Chq./Ref.No.',
      'Value Dt',
      'Withdrawal Amt.',
      'Deposit Amt.',
      'Closing Balance',
    ]);
    expect(hdfc).toEqual({ date: 0, narration: 1, ref: 2, value: 3, withdrawal: 4, deposit: 5, balance: 6 });
    const sbi = knownLayout([
      'Txn Date',
      'Value Date',
      'Description',
      'Ref No./Cheque No.',
      'Debit',
      'Credit',
      'Balance',
    ]);
    expect(sbi).toEqual({ date: 0, value: 1, narration: 2, ref: 3, withdrawal: 4, deposit: 5, balance: 6 });
    const axis = knownLayout(['Tran Date', 'CHQNO', 'PARTICULARS', 'DR', 'CR', 'BAL', 'SOL']);
    expect(axis).toEqual({ date: 0, ref: 1, narration: 2, withdrawal: 3, deposit: 4, balance: 5 });
    expect(knownLayout(['Account No', '50200012345678'])).toBeUndefined();
  });

  it('splits records: quotes, doubled quotes, line breaks inside quotes, CRLF, a BOM', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'payctl-csv-')), 'a.csv');
    writeFileSync(file, '\uFEFFa,b\r\n"x, ""y""","multi\nline"\r\n\r\nplain,"1,00,000.00"\nlast,"no newline"');
    const out: Array<{ line: number; cells: string[] }> = [];
    for await (const batch of csvRecords(file)) out.push(...batch);
    expect(out).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['x, "y"', 'multi\nline'] },
      { line: 5, cells: ['plain', '1,00,000.00'] },
      { line: 6, cells: ['last', 'no newline'] },
    ]);
  });
});
