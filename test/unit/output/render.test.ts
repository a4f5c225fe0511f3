import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { guardFormula, quoteField } from '../../../src/output/csv';
import { parseFields, getPath } from '../../../src/output/fields';
import { formatMoney, formatMoneyShort } from '../../../src/output/money';
import { renderMany, renderOne } from '../../../src/output/render';
import type { RenderOptions } from '../../../src/output/render';
import { stripControl } from '../../../src/output/sanitize';
import { parseCsvRows } from '../../../src/bulk/csv-rows';

/** Reads what we write back with the parser bulk --input uses, to prove the round trip. */
function readCsv(text: string): string[][] {
  const parsed = parseCsvRows(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value.map((r) => r.cells);
}

async function rendered(
  fn: (opts: RenderOptions) => Promise<unknown>,
  format: RenderOptions['format'],
  fields?: string[],
) {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d) => (text += d));
  await fn({ format, fields, tz: 'Asia/Kolkata', out });
  return text;
}

const payment = {
  id: 'pay_29QQoUBi66xm2f',
  entity: 'payment',
  amount: 50000,
  currency: 'INR',
  status: 'captured',
  email: '=HYPERLINK("http://evil.example","click")',
  contact: '+919876543210',
  notes: { reason: 'damaged, "badly"\nsecond line', team: '@ops' },
  fee: null,
  created_at: 1714501799,
};

describe('csv', () => {
  it('quotes commas, quotes and newlines so they round-trip', async () => {
    const text = await rendered((o) => renderMany('payment', [payment], o), 'csv', [
      'id',
      'notes.reason',
      'notes.team',
      'email',
      'amount',
    ]);
    const [header, row] = readCsv(text);
    expect(header).toEqual(['id', 'notes.reason', 'notes.team', 'email', 'amount']);
    expect(row).toEqual([
      'pay_29QQoUBi66xm2f',
      'damaged, "badly"\nsecond line',
      "'@ops",
      `'=HYPERLINK("http://evil.example","click")`,
      '50000',
    ]);
  });

  it('adds human amounts and ISO times beside the raw values by default', async () => {
    const [header, row] = readCsv(await rendered((o) => renderMany('payment', [payment], o), 'csv'));
    const cell = (name: string) => row![header!.indexOf(name)];
    expect(cell('amount')).toBe('50000');
    expect(cell('amount_display')).toBe('₹500.00');
    expect(cell('created_at')).toBe('1714501799');
    expect(cell('created_at_iso')).toBe('2024-04-30T23:59:59+05:30');
    expect(cell('email')).toMatch(/^'=/);
  });

  it.each([
    ['=SUM(A1)', "'=SUM(A1)"],
    ['=1+2', "'=1+2"],
    ['+1', '+1'],
    ['-2', '-2'],
    ['-12.50', '-12.50'],
    ['+919876543210', '+919876543210'],
    ['+91 98765', "'+91 98765"],
    ['-A1', "'-A1"],
    ['+cmd|calc', "'+cmd|calc"],
    ['@x', "'@x"],
    ['\tfoo', "'\tfoo"],
    ['\rfoo', "'\rfoo"],
    ['plain', 'plain'],
  ])('guards %j', (cell, want) => expect(guardFormula(cell)).toBe(want));

  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\r', '"cr\r"'],
    ['semi;colon', '"semi;colon"'],
    ['tab\there', '"tab\there"'],
    ['', ''],
  ])('quotes %j as %j (RFC 4180)', (field, want) => expect(quoteField(field)).toBe(want));

  it('any row of any strings reads back the same through a CSV parser', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string({ unit: 'binary' }), { minLength: 2, maxLength: 4 }), {
          minLength: 1,
          maxLength: 5,
        }),
        (rows) => {
          const text = rows.map((r) => `${r.map(quoteField).join(',')}\n`).join('');
          expect(parse(text, { relax_column_count: true })).toEqual(rows);
        },
      ),
      { numRuns: 500 },
    );
  }, 20_000);

  it('writes the header once however many rows stream', async () => {
    async function* rows() {
      for (let i = 0; i < 250; i++) yield { ...payment, id: `pay_${i}` };
    }
    const parsed = readCsv(await rendered((o) => renderMany('payment', rows(), o), 'csv'));
    expect(parsed).toHaveLength(251);
  });
});

describe('json and ndjson', () => {
  it('keep the record exactly, streaming a JSON array', async () => {
    expect(JSON.parse(await rendered((o) => renderMany('payment', [payment, payment], o), 'json'))).toEqual([
      payment,
      payment,
    ]);
    expect(JSON.parse(await rendered((o) => renderMany('payment', [], o), 'json'))).toEqual([]);
    expect(JSON.parse(await rendered((o) => renderOne('payment', payment, o), 'json'))).toEqual(payment);
    const lines = (await rendered((o) => renderMany('payment', [payment, payment], o), 'ndjson')).trim().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual([payment, payment]);
  });

  it('--fields picks dot paths', async () => {
    expect(JSON.parse(await rendered((o) => renderOne('payment', payment, o), 'json', ['id', 'notes.team']))).toEqual({
      id: payment.id,
      'notes.team': '@ops',
    });
  });
});

describe('table', () => {
  it('shows money in one human form, local times, and no control characters', async () => {
    const hostile = { ...payment, email: 'a\x1b[31mred\x1b[0m\x1b]0;pwned\x07@x.example', contact: 'x\u202eevil' };
    const text = await rendered((o) => renderMany('payment', [hostile], o), 'table');
    expect(text).toContain('₹500.00');
    expect(text).not.toContain('paise');
    expect(text).toContain('2024-04-30 23:59:59 +05:30');
    expect(text).toContain('ared@x.example');
    expect(text).not.toMatch(/\x1b\[31m|\x1b\]0|\u202e|pwned/);
  });

  it('--wide shows both money forms', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (d) => (text += d));
    await renderMany('payment', [payment], { format: 'table', tz: 'Asia/Kolkata', out, table: { wide: true } });
    expect(text).toContain('₹500.00 (50000 paise)');
    expect(text).toMatch(/currency/);
  });

  it('spells out notes of a single record', async () => {
    const text = await rendered((o) => renderOne('payment', payment, o), 'table');
    expect(text).toContain('notes.team');
    expect(text).toContain('damaged, "badly" second line');
  });
});

describe('money', () => {
  it.each([
    [50000, 'INR', '₹500.00 (50000 paise)'],
    ['100', 'INR', '₹1.00 (100 paise)'],
    [999, 'USD', '$9.99 (999 cents)'],
    [500, 'JPY', '¥500 (500 minor units of JPY)'],
    [12345, 'GBP', '£123.45 (12345 pence)'],
    [-2500, 'INR', '-₹25.00 (-2500 paise)'],
    [null, 'INR', ''],
    [100, undefined, '100 minor units'],
  ])('%j %s -> %s', (amount, cur, want) => expect(formatMoney(amount, cur)).toBe(want));

  it('short form', () => expect(formatMoneyShort(12345678, 'INR')).toBe('₹1,23,456.78'));
});

describe('sanitize and fields', () => {
  it.each([
    ['\x1b[31mred\x1b[0m', 'red'],
    ['title\x1b]0;owned\x07done', 'titledone'],
    ['csi\x9b2Jx', 'csix'],
    ['line\nbreak\ttab', 'line break tab'],
    ['bidi\u202egnp.exe', 'bidignp.exe'],
    ['bell\x07', 'bell'],
  ])('%j -> %j', (raw, want) => expect(stripControl(raw)).toBe(want));

  it('parses --fields and walks paths, even a key with a trailing space', () => {
    expect(parseFields('id, notes.reason ,amount')).toEqual({ ok: true, value: ['id', 'notes.reason', 'amount'] });
    expect(parseFields('id,,amount').ok).toBe(false);
    expect(getPath({ 'created_at ': 5 }, 'created_at')).toBe(5);
    expect(getPath({ notes: [] }, 'notes.reason')).toBeUndefined();
  });
});
