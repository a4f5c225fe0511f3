import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { formatMoney } from '../output/money';
import { openBulkInput } from './input';
import type { BulkItem, BulkOp, InputProblem } from './input';

/** Money per currency, and how many payments go at their full remaining amount. */
class Totals {
  private readonly byCurrency = new Map<string, number>();
  private open = 0;

  add(item: BulkItem) {
    if (item.amount === undefined) this.open++;
    else this.byCurrency.set(item.currency ?? 'INR', (this.byCurrency.get(item.currency ?? 'INR') ?? 0) + item.amount);
  }

  describe(): string {
    const parts = [...this.byCurrency].map(([cur, sum]) => formatMoney(sum, cur));
    if (this.open) parts.push(`${this.open} at ${this.open === 1 ? 'its' : 'their'} full remaining amount`);
    return parts.join(' + ') || 'nothing';
  }
}

/** The payments of a bulk run, read as often as needed without holding them all (a file is read again). */
export interface ItemSource {
  total: number;
  /** Hex digest over every item as it would be sent: what names the default journal. */
  digest: string;
  totals: Totals;
  items(): AsyncIterable<BulkItem>;
  cleanup(): void;
}

/** Problems met while reading: the first ones, and how many in all. */
export interface Problems {
  first: InputProblem[];
  count: number;
}

const digestLine = ({ id, amount, currency, receipt, notes }: BulkItem) =>
  `${JSON.stringify([id, amount ?? null, currency ?? null, receipt ?? null, notes ?? null])}\n`;

export function arraySource(items: BulkItem[]): ItemSource {
  const hash = createHash('sha256');
  const totals = new Totals();
  for (const item of items) {
    hash.update(digestLine(item));
    totals.add(item);
  }
  return {
    total: items.length,
    digest: hash.digest('hex'),
    totals,
    async *items() {
      yield* items;
    },
    cleanup: () => undefined,
  };
}

/**
 * A file read twice: once now, to check every row (and count, total and digest them), and again,
 * row by row, as the run or the dry run goes. Nothing but the problems is kept in between.
 */
export async function fileSource(
  path: string,
  op: BulkOp,
  fill: (item: BulkItem) => BulkItem,
  keepProblems: number,
  cleanup = () => undefined as void,
): Promise<{ source: ItemSource; problems: Problems }> {
  const hash = createHash('sha256');
  const totals = new Totals();
  const problems: Problems = { first: [], count: 0 };
  let total = 0;
  const { events } = await openBulkInput(createReadStream(path), op);
  for await (const e of events) {
    if (e.problem) {
      problems.count++;
      if (problems.first.length < keepProblems) problems.first.push(e.problem);
      continue;
    }
    const item = fill(e.item);
    total++;
    hash.update(digestLine(item));
    totals.add(item);
  }
  const source: ItemSource = {
    total,
    digest: hash.digest('hex'),
    totals,
    async *items() {
      const again = await openBulkInput(createReadStream(path), op);
      for await (const e of again.events) if (e.item) yield fill(e.item);
    },
    cleanup,
  };
  return { source, problems };
}

/** stdin copied to a private temporary file (0600 in a 0700 directory), so it can be read twice. */
export async function spool(stdin: NodeJS.ReadableStream): Promise<{ path: string; cleanup: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'payctl-input-'));
  const path = join(dir, 'input');
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    await pipeline(stdin, createWriteStream(path, { mode: 0o600 }));
  } catch (err) {
    cleanup();
    throw err;
  }
  return { path, cleanup };
}
