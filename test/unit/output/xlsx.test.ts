import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { PassThrough, Writable } from 'node:stream';
import { crc32, inflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type * as XLSX from 'xlsx';
import { exportColumns } from '../../../src/output/render';
import { ExportSummary } from '../../../src/output/summary';
import { writeXlsx, xmlText } from '../../../src/output/xlsx';
import { cellXml } from '../../../src/output/xlsx-xml';
import { ZipWriter } from '../../../src/output/zip';

// SheetJS reads what payctl's own writer wrote: it shares no code with it.
const { read, utils } = createRequire(import.meta.url)('xlsx') as typeof XLSX;

const summaryOf = () => new ExportSummary('order', {}, { tz: 'Asia/Kolkata', chosen: true });

async function workbookOf(rows: unknown[], out = new PassThrough()): Promise<Buffer> {
  const chunks: Buffer[] = [];
  out.on('data', (d: Buffer) => chunks.push(d));
  const columns = await exportColumns('order', { tz: 'Asia/Kolkata' });
  const done = new Promise((resolve) => out.on('finish', resolve));
  await writeXlsx(out, 'order', columns, rows, summaryOf());
  out.end();
  await done;
  return Buffer.concat(chunks);
}

const order = (i: number, receipt: unknown) => ({
  id: `order_${String(i).padStart(14, '0')}`,
  entity: 'order',
  amount: 1000 + i,
  amount_paid: 0,
  amount_due: 1000 + i,
  currency: 'INR',
  receipt,
  status: 'created',
  attempts: 0,
  notes: {},
  created_at: 1_714_500_000 + i,
});

/** The local files of a zip, read by its headers and data descriptors, each checked against its CRC. */
function zipParts(zip: Buffer): Map<string, string> {
  const parts = new Map<string, string>();
  const directory = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(directory + 10);
  let at = zip.readUInt32LE(directory + 16);
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const [crc, compressed, size] = [zip.readUInt32LE(at + 16), zip.readUInt32LE(at + 20), zip.readUInt32LE(at + 24)];
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    expect(zip.readUInt32LE(local)).toBe(0x04034b50);
    expect(zip.readUInt16LE(local + 6) & 0x0808).toBe(0x0808);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = inflateRawSync(zip.subarray(start, start + compressed));
    expect(data.length).toBe(size);
    expect(crc32(data)).toBe(crc);
    // The data descriptor after the data says the same.
    expect(zip.readUInt32LE(start + compressed)).toBe(0x08074b50);
    expect(zip.readUInt32LE(start + compressed + 4)).toBe(crc);
    expect(zip.readUInt32LE(start + compressed + 12)).toBe(size);
    parts.set(name, data.toString('utf8'));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return parts;
}

// What XML 1.0 cannot carry is dropped (DEL too, as before); everything else reads back as written.
const FORBIDDEN = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F\uFFFE\uFFFF]|[\uD800-\uDFFF]/gu;

describe('xlsx writer', () => {
  it('a zip whose every part matches its CRC and sizes, the parts an xlsx needs, rows as inline strings', async () => {
    const parts = zipParts(await workbookOf([order(1, 'r-1'), order(2, 'r-2')]));
    expect([...parts.keys()].sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
      'xl/worksheets/sheet2.xml',
    ]);
    const sheet = parts.get('xl/worksheets/sheet1.xml')!;
    expect(sheet).toContain('<c r="A2" t="inlineStr"><is><t>order_00000000000001</t></is></c>');
    expect(sheet).not.toContain('t="s"');
    expect(sheet).toMatch(/<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"\/>/);
    expect(sheet).toContain('<autoFilter ref="A1:');
  });

  it('text reads back exactly (less what XML 1.0 forbids), and is never a formula', async () => {
    const hostile = [
      '=1+2',
      '@SUM(A1)',
      '<b>&amp;</b>',
      '  leading and trailing  ',
      'line\nbreak\r\nand CR\r',
      'tab\there',
      '_x0041_ stays _x0041_',
      '_x005F_x0041_ and __x0041__',
      'emoji 🧾 and ₹',
      'nul\u0000 bell\u0007 del\u007f',
      'lone \uD800 surrogate',
      '',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.constantFrom(...hostile), fc.string({ unit: 'binary' })), { minLength: 1, maxLength: 8 }),
        async (receipts) => {
          const book = read(await workbookOf(receipts.map((r, i) => order(i, r))), { cellFormula: true });
          const rows = utils.sheet_to_json<Record<string, unknown>>(book.Sheets.Orders!, { defval: null });
          const sheet = book.Sheets.Orders!;
          receipts.forEach((r, i) => {
            const want = r.replace(FORBIDDEN, '');
            expect(rows[i]!.receipt ?? '').toBe(want);
          });
          for (const [ref, cell] of Object.entries(sheet)) if (!ref.startsWith('!')) expect(cell.f).toBeUndefined();
        },
      ),
      { numRuns: 40 },
    );
  });

  it("a number cell holds the number's text as String gives it, fractions and large numbers too", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (v) => {
        expect(cellXml('<c r="A', '2', 0, v)).toBe(`<c r="A2"><v>${String(v)}</v></c>`);
      }),
      { numRuns: 2000 },
    );
    expect(cellXml('<c r="B', '3', 0, 1.63)).toBe('<c r="B3"><v>1.63</v></c>');
    expect(cellXml('<c r="B', '3', 0, Infinity)).toBe('');
  });

  it('xmlText leaves plain text as it is and escapes the rest', () => {
    expect(xmlText('order_1 ₹1,234.50')).toBe('order_1 ₹1,234.50');
    expect(xmlText('a<b>&c\r')).toBe('a&lt;b&gt;&amp;c&#13;');
    expect(xmlText('_x000D_')).toBe('_x005F_x000D_');
    expect(xmlText('_x005F_x0041_')).toBe('_x005F_x005F_x005F_x0041_');
    expect(xmlText('a\u0001b\uFFFEc\uDC00d🧾')).toBe('abcd🧾');
  });

  it('waits for a slow file: what it holds stays bounded however many rows come', async () => {
    let most = 0;
    let total = 0;
    // A disk slower than the writer: each chunk takes 5 ms (the writer, not the test, waits for it).
    const out = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _enc, done) {
        most = Math.max(most, this.writableLength);
        total += chunk.length;
        setTimeout(done, 5);
      },
    });
    // Receipts that deflate cannot shrink much: megabytes of output.
    const rows = Array.from({ length: 20_000 }, (_, i) => order(i, randomBytes(100).toString('base64')));
    const columns = await exportColumns('order', { tz: 'Asia/Kolkata' });
    const finished = new Promise((resolve) => out.on('finish', resolve));
    expect(await writeXlsx(out, 'order', columns, rows, summaryOf())).toBe(20_000);
    out.end();
    await finished;
    // deflate's output comes in 64 KiB chunks: the file never holds more than a few of them.
    expect(total).toBeGreaterThan(3 * 1024 * 1024);
    expect(most).toBeLessThan(512 * 1024);
  });

  it('a part of many chunks, written faster than deflate and the file take it, reads back exactly', async () => {
    // Chunk buffers are used again once deflate has read them: one reused too soon would show here.
    const chunks: Buffer[] = [];
    const out = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk);
        setTimeout(done, 1);
      },
    });
    const finished = new Promise((resolve) => out.on('finish', resolve));
    const zip = new ZipWriter(out);
    const part = await zip.part('big.xml');
    let text = '';
    for (let i = 0; i < 400; i++) {
      const piece = `<r n="${i}">${randomBytes(7_500).toString('base64')}</r>`;
      text += piece;
      const wait = part.write(piece);
      if (wait) await wait;
    }
    await part.close();
    await zip.finish();
    out.end();
    await finished;
    expect(text.length).toBeGreaterThan(4_000_000);
    expect(zipParts(Buffer.concat(chunks)).get('big.xml')).toBe(text);
  });

  it('refuses a part that would pass what a zip without ZIP64 holds, instead of writing it wrong', async () => {
    const zip = new ZipWriter(new PassThrough().resume(), { limit: 100_000 });
    const part = await zip.part('big.xml');
    await expect(
      (async () => {
        for (let i = 0; i < 100; i++) await part.write('x'.repeat(65_536));
        await part.close();
      })(),
    ).rejects.toThrow(/would pass 4 GiB.*without ZIP64/);
  });
});
