import { describe, expect, it } from 'vitest';
import { parseBulkInput } from '../../../src/bulk/input';

const A = 'pay_29QQoUBi66xm2f';
const B = 'pay_3mQ0xPwyYkBq8c';
const record = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  entity: 'payment',
  amount: 50000,
  currency: 'INR',
  status: 'authorized',
  notes: { source: 'checkout' },
  acquirer_data: { auth_code: 'X1' },
  created_at: 1795582514,
  ...extra,
});

describe("payctl's own output as bulk input", () => {
  it('NDJSON payment records: rows by id, with their amount and currency; other keys left out', async () => {
    const text = `${JSON.stringify(record(A))}\n${JSON.stringify(record(B, { amount: 1234 }))}\n`;
    const parsed = await parseBulkInput(text, 'capture');
    expect(parsed).toMatchObject({ format: 'ndjson', problems: [] });
    expect(parsed.items).toEqual([
      { line: 1, id: A, amount: 50000, currency: 'INR' },
      { line: 2, id: B, amount: 1234, currency: 'INR' },
    ]);
  });

  it("a payment record's notes are not a refund's notes", async () => {
    const parsed = await parseBulkInput(`${JSON.stringify(record(A))}\n`, 'refund');
    expect(parsed.items).toEqual([{ line: 1, id: A, amount: 50000, currency: 'INR' }]);
  });

  it('the -o json array, indented over many lines, numbered by the line each record starts on', async () => {
    const text = JSON.stringify([record(A), record(B)], null, 2) + '\n';
    const parsed = await parseBulkInput(text, 'capture');
    expect(parsed).toMatchObject({ format: 'json', problems: [] });
    const second = text.split('\n').findIndex((l, i) => i > 1 && l === '  {') + 1;
    expect(parsed.items.map((i) => [i.line, i.id])).toEqual([
      [2, A],
      [second, B],
    ]);
  });

  it('a JSON array of ids (`sandbox seed -o json`), one record, and a collection as the service sends it', async () => {
    expect((await parseBulkInput(`[\n  "${A}",\n  "${B}"\n]\n`, 'capture')).items).toEqual([
      { line: 2, id: A },
      { line: 3, id: B },
    ]);
    expect((await parseBulkInput(JSON.stringify(record(A), null, 2), 'capture')).items).toEqual([
      { line: 1, id: A, amount: 50000, currency: 'INR' },
    ]);
    const collection = { entity: 'collection', count: 2, items: [record(A), record(B)] };
    expect((await parseBulkInput(JSON.stringify(collection), 'capture')).items.map((i) => i.id)).toEqual([A, B]);
  });

  it('a bare id object is a row; its keys stay strict', async () => {
    const parsed = await parseBulkInput(`{"id":"${A}"}\n{"id":"${B}","amount":100,"status":"x"}\n`, 'refund');
    expect(parsed.items).toEqual([{ line: 1, id: A }]);
    expect(parsed.problems).toEqual([
      { line: 2, message: expect.stringMatching(/^unknown key "status"/) as unknown as string },
    ]);
  });

  it.each([
    [
      'an order record',
      `{"id":"order_1","entity":"order","amount":1}\n`,
      1,
      /a "order" record where a payment is expected/,
    ],
    ['a record without an entity but with other keys', `{"id":"${A}","method":"card"}\n`, 1, /unknown key "method"/],
    ['both id and payment_id', `{"id":"${A}","payment_id":"${A}"}\n`, 1, /both id and payment_id/],
    ['a JSON array never closed', `[\n  "${A}",\n`, 3, /never closed/],
    ['a number in a JSON array', `[\n  42\n]\n`, 2, /not a JSON object \(got a number\)/],
    ['a refund record', `{"id":"rfnd_1","entity":"refund","amount":1}\n`, 1, /"refund" record where a payment/],
  ])('refuses %s, naming the line', async (_n, text, line, message) => {
    const parsed = await parseBulkInput(text, 'refund');
    expect(parsed.items.filter((i) => i.line === line)).toEqual([]);
    expect(parsed.problems).toEqual([{ line, message: expect.stringMatching(message) as unknown as string }]);
  });

  it('each payment once, also across records', async () => {
    const parsed = await parseBulkInput(`${JSON.stringify(record(A))}\n{"id":"${A}"}\n`, 'refund');
    expect(parsed.problems[0]).toMatchObject({ line: 2, message: expect.stringMatching(/already on line 1/) });
  });

  it("payctl's CSV export: the id column names the payment, descriptive columns are left out", async () => {
    const header = 'id,status,amount,amount_display,currency,method,created_at,created_at_local';
    const text = `${header}\n${A},authorized,50000,"₹500.00",INR,card,1795582514,2026-11-25 04:55:14\n`;
    expect(await parseBulkInput(text, 'capture')).toMatchObject({
      format: 'csv',
      problems: [],
      items: [{ line: 2, id: A, amount: 50000, currency: 'INR' }],
    });
    expect((await parseBulkInput(`id\n${A}\n${B}\n`, 'capture')).items).toEqual([
      { line: 2, id: A },
      { line: 3, id: B },
    ]);
  });

  it('an export without a currency column: a capture takes the authorized amount, a refund the amount given', async () => {
    const text = `id,status,amount\n${A},captured,700\n`;
    expect((await parseBulkInput(text, 'capture')).items).toEqual([{ line: 2, id: A }]);
    expect((await parseBulkInput(text, 'refund')).items).toEqual([{ line: 2, id: A, amount: 700 }]);
  });

  it('a CSV naming payment_id stays strict', async () => {
    const parsed = await parseBulkInput(`payment_id,status\n${A},x\n`, 'refund');
    expect(parsed.problems[0]!.message).toMatch(/unknown CSV column\(s\) "status"/);
  });
});
