import { createHash } from 'node:crypto';
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { formatMoney } from '../output/money';
import { openBulkInput } from './input';
import type { BulkItem, BulkOp, InputProblem } from './input';
import { itemOf } from './journal-records';
import type { RowRecord } from './journal-records';

/** Money per currency, and how many payments go at their full remaining amount. */
export class Totals {
  private readonly byCurrency = new Map<string, number>();
  private open = 0;

  add(item: BulkItem) {
    if (item.amount === undefined) this.open++;
    else this.byCurrency.set(item.currency ?? 'INR', (this.byCurrency.get(item.currency ?? 'INR') ?? 0) + item.amount);
  }

  /** Payments whose amount is read from the service (none given): counted, never summed as money. */
  get unread(): number {
    return this.open;
  }

  /** The amounts given, per currency ('' when none). */
  money(): string {
    return [...this.byCurrency].map(([cur, sum]) => formatMoney(sum, cur)).join(' + ');
  }
}

/**
 * The checked rows of a bulk run, read from the input exactly once: an --input is parsed, checked,
 * counted, totalled and digested as it streams, and its rows kept in a private file (0600 in a 0700
 * directory) until the journal holds them as the run's plan. The input itself is never read again.
 */
export interface ItemSource {
  total: number;
  /** Hex digest over every item as it would be sent: names the default journal and the run's identity. */
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

/** Reads the checked rows back from the private copy, a line at a time. */
async function* spooled(path: string): AsyncGenerator<BulkItem> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  for await (const line of lines) if (line) yield itemOf(JSON.parse(line) as RowRecord);
}

/**
 * Reads `input` once: every row checked (problems kept), filled with the run's defaults, counted,
 * totalled, digested and copied to a private file the run's plan is made from.
 */
export async function readOnce(
  input: AsyncIterable<Buffer | string>,
  op: BulkOp,
  fill: (item: BulkItem) => BulkItem,
  keepProblems: number,
): Promise<{ source: ItemSource; problems: Problems }> {
  const hash = createHash('sha256');
  const totals = new Totals();
  const problems: Problems = { first: [], count: 0 };
  const dir = mkdtempSync(join(tmpdir(), 'payctl-plan-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  const path = join(dir, 'rows.ndjson');
  let total = 0;
  try {
    const fd = openSync(path, 'wx', 0o600);
    try {
      let batch = '';
      const { events } = await openBulkInput(input, op);
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
        batch += `${JSON.stringify({ type: 'row', ...item })}\n`;
        if (batch.length >= 1 << 16) {
          writeSync(fd, batch);
          batch = '';
        }
      }
      if (batch) writeSync(fd, batch);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    cleanup();
    throw err;
  }
  const source: ItemSource = { total, digest: hash.digest('hex'), totals, items: () => spooled(path), cleanup };
  return { source, problems };
}

/** Pure over two row streams: the first line where a given input differs from the stored plan. */
export async function firstDifference(
  plan: AsyncIterable<BulkItem>,
  given: AsyncIterable<BulkItem>,
): Promise<string | undefined> {
  const a = plan[Symbol.asyncIterator]();
  const b = given[Symbol.asyncIterator]();
  try {
    return await differ(a, b);
  } finally {
    await a.return?.();
    await b.return?.();
  }
}

async function differ(a: AsyncIterator<BulkItem>, b: AsyncIterator<BulkItem>): Promise<string | undefined> {
  for (let n = 1; ; n++) {
    const [x, y] = await Promise.all([a.next(), b.next()]);
    if (x.done && y.done) return undefined;
    if (x.done) return `the input has more rows than the plan (row ${n}, line ${y.value!.line}: ${y.value!.id})`;
    if (y.done) return `the input has fewer rows than the plan (it ends before row ${n}, ${x.value.id})`;
    if (digestLine(x.value) !== digestLine(y.value) || x.value.line !== y.value.line)
      return (
        `row ${n} differs: line ${y.value.line} is ${digestLine(y.value).trim()}, ` +
        `the plan holds line ${x.value.line} ${digestLine(x.value).trim()}`
      );
  }
}
