import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fitColumns, shorten, textWidth } from '../../../src/output/layout';
import { renderMany } from '../../../src/output/render';
import { columnsFor } from '../../../src/output/columns';
import { tableOfMany } from '../../../src/output/table';

const col = (header: string, rank: number, shrinkable = false) => ({ header, rank, shrinkable });

describe('fitting columns to a width', () => {
  it.each([
    ['abcdef', 4, 'abc…'],
    ['abc', 3, 'abc'],
    ['日本語テキスト', 5, '日本…'],
    ['x', 0, ''],
  ])('shorten(%j, %i) = %j', (text, width, want) => {
    expect(shorten(text, width)).toBe(want);
    expect(textWidth(shorten(text, width))).toBeLessThanOrEqual(width);
  });

  const columns = [col('id', 0), col('status', 1), col('email', 3, true), col('created_at', 2)];
  const cells = [['pay_29QQoUBi66xm2f', 'captured', 'someone@example-company.co.in', '2024-04-30 23:59:59 +05:30']];

  it('keeps everything at natural width when it fits or there is no limit', () => {
    expect(fitColumns(columns, cells, undefined)).toEqual({ keep: [0, 1, 2, 3], widths: [18, 8, 29, 26] });
    expect(fitColumns(columns, cells, 200).widths).toEqual([18, 8, 29, 26]);
  });

  it('keeps the most important columns whole, cuts a text column to the room left, leaves out what does not fit', () => {
    const shrunk = fitColumns(columns, cells, 70);
    expect(shrunk.keep).toEqual([0, 1, 2, 3]);
    expect(shrunk.widths[2]).toBe(70 - 18 - 8 - 26 - 6);
    const dropped = fitColumns(columns, cells, 60);
    expect(dropped.keep).toEqual([0, 1, 3]);
  });

  it('a wide important column left out does not stop narrower, less important ones', () => {
    const cols = [col('id', 0), col('created_at', 1), col('status', 2)];
    expect(fitColumns(cols, [['pay_29QQoUBi66xm2f', '2024-04-30 23:59:59 +05:30', 'captured']], 40)).toEqual({
      keep: [0, 2],
      widths: [18, 26, 8],
    });
  });

  it('a lone column too wide for the terminal is cut to it', () => {
    expect(fitColumns([col('id', 0)], [['x'.repeat(50)]], 20)).toEqual({ keep: [0], widths: [20] });
  });

  it('draws a rule under the header and names what it left out', () => {
    const drawn = tableOfMany(
      [{ id: 'pay_1', status: 'captured', amount: 100, currency: 'INR', email: 'a@b.c', created_at: 1714501799 }],
      columnsFor('payment'),
      'payment',
      'Asia/Kolkata',
      { width: 60 },
    );
    const lines = drawn.text.trimEnd().split('\n');
    expect(lines[1]).toMatch(/^─+( {2}─+)+$/);
    for (const l of lines) expect(textWidth(l)).toBeLessThanOrEqual(60);
    expect(drawn.dropped).toContain('captured');
    expect(drawn.dropped).not.toContain('amount');
  });

  const payment = {
    id: 'pay_29QQoUBi66xm2f',
    status: 'authorized',
    amount: 240000,
    amount_refunded: 40000,
    currency: 'INR',
    email: 'priya.sharma@example.com',
    created_at: 1714501799,
  };
  const at80 = (rows: unknown[]) =>
    tableOfMany(rows, columnsFor('payment', undefined, undefined, { tz: 'UTC', tagged: true }), 'payment', 'UTC', {
      width: 80,
    });

  it('payments at 80 columns keep what was refunded (headed "refunded") and the time; --wide names it in full', () => {
    const head = at80([payment]).text.split('\n')[0]!;
    expect(head).toMatch(/^id\s+status\s+amount\s+refunded\s+created_at$/);
    const wide = tableOfMany([payment], columnsFor('payment'), 'payment', 'UTC', { wide: true });
    expect(wide.text.split('\n')[0]).toMatch(/\bamount_refunded\b/);
  });

  it('rows read by many ids show an error column only when an id failed', () => {
    expect(at80([payment]).text).not.toMatch(/\berror\b/);
    const failed = at80([payment, { id: 'pay_2', error: 'the service says: The id provided does not exist' }]);
    expect(failed.text.split('\n')[0]).toMatch(/\berror$/);
    expect(failed.text).toMatch(/pay_2\s+the service says: The id/);
  });
});

describe('JSON arrays', () => {
  it('are streamed as JSON.stringify(array, null, 2) would print them', async () => {
    const rows = [
      { id: 'a', n: { x: [1, 2] } },
      { id: 'b', s: 'line\nbreak' },
    ];
    const out = new PassThrough();
    let text = '';
    out.on('data', (d) => (text += d));
    await renderMany('generic', rows, { format: 'json', tz: 'UTC', out });
    expect(text).toBe(`${JSON.stringify(rows, null, 2)}\n`);
  });
});
