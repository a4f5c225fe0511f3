import { basename } from 'node:path';
import { csvRecords } from './csv-records';
import { columnsFlag, flaggedLayout, knownLayout } from './csv-layout';
import type { ColumnsFlag, Layout } from './csv-layout';
import { FIELD_MAX, StatementError, tally } from './types';
import type { BankEntry, BankEvent, StatementTotals } from './types';
import { bankDay, paise } from './values';

export { columnsFlag };
export type { ColumnsFlag };

/** A cell's amount: blank, `-` and `0` are none; a trailing Cr/Dr (balances) signs it. */
function amountCell(file: string, line: number, what: string, cell: string | undefined): number | undefined {
  const t = (cell ?? '').trim();
  if (t === '' || t === '-') return undefined;
  const plain = paise(t);
  if (plain !== undefined) return plain;
  const m = /^(-)?(.*?)\s*(Cr|Dr|CR|DR)?\.?$/.exec(t)!;
  const value = paise(m[2]!);
  if (value === undefined)
    throw new StatementError(file, `line ${line}`, `${what} "${t.slice(0, 40)}" is not an amount (e.g. 1,00,000.00)`);
  return m[1] || m[3]?.toUpperCase() === 'DR' ? -value : value;
}

interface Running {
  first?: { balance: number; net: number };
  last?: { balance: number; net: number; line: number };
  forward: boolean;
  backward: boolean;
  breaksAt?: { line: number; stated: number; made: number };
}

/**
 * Every entry of a netbanking CSV export, streamed: rows above the header (account details) are passed
 * over, as are rows after it without a date and an amount (separators, footers). A balance column is
 * followed row by row: opening + entries = closing, oldest or newest first.
 */
export async function* readCsv(file: string, columns?: ColumnsFlag): AsyncGenerator<BankEvent[]> {
  let layout: Layout | undefined = columns && !Object.keys(columns.byName).length ? columns.byNumber : undefined;
  const totals: StatementTotals = { file, line: 1, statement: basename(file), credits: 0, debits: 0, entries: 0 };
  const run: Running = { forward: true, backward: true };
  let seen = 0;
  let done = false;
  for await (const batch of csvRecords(file)) {
    const events: BankEvent[] = [];
    for (const { line, cells: record } of batch) {
      if (++seen > 200 && !layout) {
        done = true;
        break;
      }
      if (!layout) {
        layout = columns ? flaggedLayout(columns, record) : knownLayout(record);
        if (layout) totals.line = line + 1;
        continue;
      }
      const cell = (i: number | undefined) => (i === undefined ? '' : (record[i] ?? '').trim());
      const day = bankDay(cell(layout.date));
      if (!day) {
        // Rows without a date are the bank's own lines (a repeated header, separators, totals), unless
        // they carry an amount: then the date is wrong, and said so.
        const amounts = [cell(layout.withdrawal), cell(layout.deposit)].filter((c) => c !== '' && c !== '-');
        if (!amounts.some((c) => paise(c.replace(/^-/, '')))) continue;
        throw new StatementError(
          file,
          `line ${line}`,
          `date "${cell(layout.date).slice(0, 30)}" is not a date (DD/MM/YY, DD/MM/YYYY, DD-MMM-YYYY)`,
        );
      }
      const out = amountCell(file, line, 'withdrawal', cell(layout.withdrawal)) ?? 0;
      const inn = amountCell(file, line, 'deposit', cell(layout.deposit)) ?? 0;
      if (out && inn)
        throw new StatementError(file, `line ${line}`, 'a row with both a withdrawal and a deposit: one entry has one');
      if (!out && !inn) continue;
      const entry: BankEntry = {
        file,
        line,
        statement: totals.statement,
        valueDate: bankDay(cell(layout.value)) ?? day,
        bookingDate: day,
        amount: Math.abs(inn || out),
        credit: inn > 0 || out < 0,
        reference: cell(layout.ref).slice(0, FIELD_MAX),
        narration: cell(layout.narration).slice(0, FIELD_MAX),
      };
      tally(totals, entry);
      follow(run, amountCell(file, line, 'balance', cell(layout.balance)), entry, line);
      events.push({ type: 'entry', entry });
    }
    if (events.length) yield events;
    if (done) break;
  }
  if (!layout)
    throw new StatementError(
      file,
      '',
      'no header row of a netbanking export found (Date, Narration, Chq./Ref.No., Value Dt, Withdrawal, Deposit, ' +
        'Closing Balance, in any order); name the columns with --columns date=…,narration=…,withdrawal=…,deposit=…',
    );
  if (run.first && run.last) {
    const newestFirst = !run.forward && run.backward;
    totals.opening = newestFirst ? run.last.balance - run.last.net : run.first.balance - run.first.net;
    totals.closing = newestFirst ? run.first.balance : run.last.balance;
    if (!run.forward && !run.backward) totals.breaksAt = run.breaksAt;
  }
  yield [{ type: 'statement', totals }];
}

/** Follows the balance column: each row's balance is the last one's plus its own entry (or, newest first, minus the last's). */
function follow(run: Running, balance: number | undefined, e: BankEntry, line: number) {
  if (balance === undefined) return;
  const net = e.credit ? e.amount : -e.amount;
  if (run.last) {
    if (run.last.balance + net !== balance) {
      run.forward = false;
      run.breaksAt ??= { line, stated: balance, made: run.last.balance + net };
    }
    if (balance + run.last.net !== run.last.balance) run.backward = false;
  } else run.first = { balance, net };
  run.last = { balance, net, line };
}
