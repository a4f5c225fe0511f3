import { describe, expect, it } from 'vitest';
import { itemsFromArgs, parseBulkInput, readBulkInput } from '../../../src/bulk/input';
import { parseCsvRows } from '../../../src/bulk/csv-rows';

const A = 'pay_29QQoUBi66xm2f';
const B = 'pay_3mQ0xPwyYkBq8c';

describe('parseBulkInput', () => {
  it.each([
    [
      'ids, blank lines and comments',
      `${A}\n\n# a comment\n  ${B}  \n`,
      'ids',
      [
        { line: 1, id: A },
        { line: 4, id: B },
      ],
    ],
    [
      'ids with CRLF',
      `${A}\r\n${B}\r\n`,
      'ids',
      [
        { line: 1, id: A },
        { line: 2, id: B },
      ],
    ],
    [
      'CSV with amounts',
      `payment_id,amount,currency\n${A},50000,inr\n`,
      'csv',
      [{ line: 2, id: A, amount: 50000, currency: 'INR' }],
    ],
    [
      'CSV with quoted cells and notes',
      `payment_id,amount,receipt,note.reason\n"${A}",100,"r,1","said ""no"""\n`,
      'csv',
      [{ line: 2, id: A, amount: 100, receipt: 'r,1', notes: { reason: 'said "no"' } }],
    ],
    ['CSV with a BOM and empty optional cells', `\uFEFFpayment_id,amount\n${A},\n`, 'csv', [{ line: 2, id: A }]],
    [
      'NDJSON with notes: []',
      `{"payment_id":"${A}","notes":[]}\n{"payment_id":"${B}","amount":"200"}\n`,
      'ndjson',
      [
        { line: 1, id: A },
        { line: 2, id: B, amount: 200 },
      ],
    ],
  ])('%s', async (_name, text, format, items) => {
    const parsed = await parseBulkInput(text, 'refund');
    expect(parsed.problems).toEqual([]);
    expect(parsed.format).toBe(format);
    expect(parsed.items).toEqual(items);
  });

  it.each([
    ['a bad id', `${A}\npay_has space\n`, 'capture', 2, /payment id must look like pay_/],
    ['a path in an id', `../admin\n`, 'capture', 1, /payment id must look like/],
    ['a decimal amount', `payment_id,amount,currency\n${A},12.50,INR\n`, 'capture', 2, /did you mean 1250\?/],
    [
      'amount without currency on a capture',
      `payment_id,amount\n${A},100\n`,
      'capture',
      2,
      /amount and currency go together/,
    ],
    ['a receipt on a capture', `payment_id,receipt\n${A},r1\n`, 'capture', 2, /refunds only/],
    ['a receipt over 40 characters', `payment_id,receipt\n${A},${'x'.repeat(41)}\n`, 'refund', 2, /longer than 40/],
    ['a short CSV row', `payment_id,amount\n${A}\n`, 'refund', 2, /1 field\(s\) where the header has 2/],
    ['an unknown CSV column', `payment_id,amonut\n${A},1\n`, 'refund', 1, /unknown CSV column\(s\) "amonut"/],
    ['an unclosed quote', `payment_id\n"${A}\n`, 'refund', 2, /quoted field is never closed/],
    ['a JSON line that is not an object', `{"payment_id":"${A}"}\n[1]\n`, 'refund', 2, /not a JSON object/],
    ['a payment twice', `${A}\n${B}\n${A}\n`, 'refund', 3, /already on line 1/],
    ['a note value over 256', `payment_id,note.k\n${A},${'x'.repeat(257)}\n`, 'refund', 2, /at most 256/],
  ])('refuses %s with its line number', async (_name, text, op, line, message) => {
    const parsed = await parseBulkInput(text, op as 'capture' | 'refund');
    expect(parsed.problems).toHaveLength(1);
    expect(parsed.problems[0]!.line).toBe(line);
    expect(parsed.problems[0]!.message).toMatch(message);
  });

  it.each([
    [
      'a misspelt NDJSON key',
      `{"payment_id":"${A}","amout":1000}\n`,
      1,
      /unknown key "amout" \(did you mean "amount"\?\)/,
    ],
    [
      'an unknown NDJSON key without a near name',
      `{"payment_id":"${A}","zzzzzzzz":1}\n`,
      1,
      /unknown key "zzzzzzzz": a row takes payment_id, amount, currency, receipt, notes \(or a payment record as payctl prints it\)$/,
    ],
    ['a null row', `{"payment_id":"${A}"}\nnull\n`, 2, /not a JSON object \(got null\)/],
    ['a number row', `{"payment_id":"${A}"}\n42\n`, 2, /not a JSON object \(got a number\)/],
    ['a string row', `{"payment_id":"${A}"}\n"pay_x"\n`, 2, /not a JSON object \(got a string\)/],
    [
      'a repeated CSV header',
      `payment_id,amount,amount\n${A},1000,40000\n`,
      1,
      /column "amount" appears twice in the header \(columns 2 and 3\)/,
    ],
    [
      'a misspelt CSV column',
      `payment_id,amonut\n${A},1\n`,
      1,
      /unknown CSV column\(s\) "amonut" \(did you mean "amount"\?\)/,
    ],
  ])('refuses %s, naming the line, with a did-you-mean', async (_name, text, line, message) => {
    const parsed = await parseBulkInput(text, 'refund');
    expect(parsed.items.filter((i) => i.line === line)).toEqual([]);
    expect(parsed.problems).toEqual([{ line, message: expect.stringMatching(message) as unknown as string }]);
  });

  it('reads CSV with a BOM, CRLF and a quoted newline, numbering rows by the line they start on', async () => {
    const parsed = await parseBulkInput(
      `\uFEFFpayment_id,amount,note.reason\r\n${A},100,"two\r\nlines"\r\n${B},200,x\r\n`,
      'refund',
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.items).toEqual([
      { line: 2, id: A, amount: 100, notes: { reason: 'two\nlines' } },
      { line: 4, id: B, amount: 200, notes: { reason: 'x' } },
    ]);
  });

  it('reads a stream cut at any byte, even inside a character', async () => {
    const text = `{"payment_id":"${A}","notes":{"who":"Zoë"}}\n{"payment_id":"${B}"}\n`;
    const bytes = Buffer.from(text);
    for (let cut = 1; cut < bytes.length; cut += 7) {
      const parsed = await readBulkInput(
        (async function* () {
          yield bytes.subarray(0, cut);
          yield bytes.subarray(cut);
        })(),
        'refund',
      );
      expect(parsed.problems).toEqual([]);
      expect(parsed.items).toEqual([
        { line: 1, id: A, notes: { who: 'Zoë' } },
        { line: 2, id: B },
      ]);
    }
  });

  it('keeps the good rows when some are bad', async () => {
    const parsed = await parseBulkInput(`${A}\nnope\n${B}\n`, 'capture');
    expect(parsed.items.map((i) => i.id)).toEqual([A, B]);
    expect(parsed.problems).toEqual([
      { line: 2, message: expect.stringMatching(/must look like/) as unknown as string },
    ]);
  });

  it('numbers argument ids by position', () => {
    expect(itemsFromArgs([A, 'x'], 'capture').problems[0]!.line).toBe(2);
  });
});

describe('parseCsvRows', () => {
  it('keeps line numbers of rows after a multi-line quoted cell', () => {
    const r = parseCsvRows('a,b\n"x\ny",1\nz,2\n');
    expect(r.ok && r.value.map((row) => [row.line, row.cells])).toEqual([
      [1, ['a', 'b']],
      [2, ['x\ny', '1']],
      [4, ['z', '2']],
    ]);
  });
  it('keeps empty cells', () => {
    const r = parseCsvRows(',\n');
    expect(r.ok && r.value[0]!.cells).toEqual(['', '']);
  });
});
