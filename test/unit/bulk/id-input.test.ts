import { describe, expect, it } from 'vitest';
import { idsFromText } from '../../../src/bulk/id-input';

const P1 = 'pay_29QQoUBi66xm2f';
const P2 = 'pay_29QQoUBi66xm2g';
const R1 = 'rfnd_FP8QHiV938haTz';

describe('ids of a read of many', () => {
  it('one id a line, blank lines and comments skipped, CRLF and a BOM forgiven', () => {
    expect(idsFromText(`\uFEFF${P1}\r\n\n# a comment\n  ${P2}  \n`, 'payment')).toEqual([
      { where: 'line 1', id: P1 },
      { where: 'line 4', id: P2 },
    ]);
  });

  it("payctl's own NDJSON, JSON and a collection as the service sends it", () => {
    const record = (id: string) => ({ id, entity: 'payment', amount: 100 });
    expect(idsFromText(`${JSON.stringify(record(P1))}\n${JSON.stringify(record(P2))}\n`, 'payment')).toEqual([
      { where: 'line 1', id: P1 },
      { where: 'line 2', id: P2 },
    ]);
    expect(idsFromText(JSON.stringify([record(P1), P2], null, 2), 'payment').map((e) => e.id)).toEqual([P1, P2]);
    const collection = { entity: 'collection', count: 1, items: [record(P2)] };
    expect(idsFromText(JSON.stringify(collection, null, 2), 'payment').map((e) => e.id)).toEqual([P2]);
  });

  it("payctl's own CSV: the id column wherever it is, quoted cells before it read as CSV", () => {
    const csv = `email,id,amount\n"a,b@x.com",${P1},100\n"multi\nline",${P2},200\n`;
    expect(idsFromText(csv, 'payment')).toEqual([
      { where: 'line 2', id: P1 },
      { where: 'line 3', id: P2 },
    ]);
  });

  it("a refund's own id, never the payment it belongs to", () => {
    const refund = { id: R1, entity: 'refund', payment_id: P1 };
    expect(idsFromText(JSON.stringify(refund), 'refund')).toEqual([{ where: 'line 1', id: R1 }]);
    expect(idsFromText(`id,payment_id\n${R1},${P1}\n`, 'refund')).toEqual([{ where: 'line 2', id: R1 }]);
    expect(idsFromText(`refund_id\n${R1}\n`, 'refund')).toEqual([{ where: 'line 2', id: R1 }]);
  });

  it('a line without a valid id is an entry with its problem, the others still come', () => {
    const entries = idsFromText(`${P1}\npay_../x\n${R1}\n`, 'payment');
    expect(entries[0]).toEqual({ where: 'line 1', id: P1 });
    expect(entries[1]).toMatchObject({ where: 'line 2', problem: expect.stringMatching(/^line 2: payment id must/) });
    expect(entries[2]).toMatchObject({ where: 'line 3', problem: expect.stringMatching(/^line 3: payment id must/) });
    expect(idsFromText('{"entity":"order","id":"order_1"}\n', 'payment')[0]).toMatchObject({
      problem: 'line 1: no payment id',
    });
    expect(idsFromText(`[\n  "${P1}",\n  "bad"\n]`, 'payment')[1]).toMatchObject({
      problem: expect.stringMatching(/^item 2: payment id must/),
    });
    expect(idsFromText('[{"id": ', 'payment')).toEqual([{ where: 'line 1', problem: '--input is not valid JSON' }]);
  });
});
