import { open } from 'node:fs/promises';
import { readCamt053 } from './camt053';
import { readCsv } from './csv';
import type { ColumnsFlag } from './csv';
import { readFailure } from './lines';
import { readMt940 } from './mt940';
import { StatementError } from './types';
import type { BankEvent, BankFormat } from './types';

/** The format of a statement from its first bytes: XML is camt.053, SWIFT tags are MT940, the rest CSV. */
export async function detectFormat(file: string): Promise<BankFormat> {
  let head: string;
  try {
    const fd = await open(file, 'r');
    try {
      const buf = Buffer.alloc(4096);
      const { bytesRead } = await fd.read(buf, 0, buf.length, 0);
      head = buf
        .subarray(0, bytesRead)
        .toString('utf8')
        .replace(/^\uFEFF/, '');
    } finally {
      await fd.close();
    }
  } catch (err) {
    throw readFailure(file, err);
  }
  const start = head.trimStart();
  if (!start) throw new StatementError(file, '', 'the file is empty');
  if (start.startsWith('<')) return 'camt053';
  if (/^(\{1:|:20:)/.test(start) || /^:(20|25|28C|60F):/m.test(head)) return 'mt940';
  return 'csv';
}

export interface ReadOptions {
  format?: BankFormat;
  columns?: ColumnsFlag;
}

/** A statement file's entries and statements, in the format given or found, a batch at a time. */
export async function* readStatement(file: string, opts: ReadOptions = {}): AsyncGenerator<BankEvent[]> {
  const format = opts.format ?? (await detectFormat(file));
  if (format === 'mt940') yield* readMt940(file);
  else if (format === 'camt053') yield* readCamt053(file);
  else yield* readCsv(file, opts.columns);
}
