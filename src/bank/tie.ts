import { Matcher } from './match';
import type { Finding, MatchOptions, SettlementLike } from './match';
import { readStatement } from './read';
import type { ReadOptions } from './read';
import { imbalance } from './types';
import type { BankEntry, StatementTotals } from './types';

/**
 * How the payment service's settlement credits read on a bank statement: the payee name it settles
 * under, or a settlement narration. A credit that matches no settlement is a finding when it reads so
 * (with --all-credits, any credit is).
 */
export const SERVICE_NARRATION = /RAZORPAY|\bRZP\b|SETTLEMENT|\bSETL\b/i;
export const serviceLike = (e: BankEntry) => SERVICE_NARRATION.test(`${e.narration} ${e.reference}`);

export interface Scanned {
  files: number;
  statements: number;
  entries: number;
  credits: number;
  debits: number;
  first?: string;
  last?: string;
  /** Statements whose opening + entries is not their closing balance. */
  unbalanced: Finding[];
}

/**
 * The first pass over every statement: each file read to its end (so a file that cannot be read ends the
 * run before anything is asked of the service), each statement's balances checked, nothing kept but sums.
 */
export async function scanStatements(files: string[], opts: ReadOptions): Promise<Scanned> {
  const out: Scanned = { files: files.length, statements: 0, entries: 0, credits: 0, debits: 0, unbalanced: [] };
  for (const file of files) {
    for await (const batch of readStatement(file, opts))
      for (const event of batch) {
        if (event.type === 'entry') {
          const e = event.entry;
          out.entries++;
          if (e.credit) out.credits += e.amount;
          else out.debits += e.amount;
          if (out.first === undefined || e.valueDate < out.first) out.first = e.valueDate;
          if (out.last === undefined || e.valueDate > out.last) out.last = e.valueDate;
          continue;
        }
        out.statements++;
        const off = imbalance(event.totals);
        if (off !== undefined) out.unbalanced.push(unbalanced(event.totals, off));
      }
  }
  return out;
}

const rupees = (paise: number) => `${paise < 0 ? '-' : ''}₹${(Math.abs(paise) / 100).toFixed(2)}`;

function unbalanced(t: StatementTotals, off: number): Finding {
  const b = t.breaksAt;
  const sums = b
    ? `at line ${b.line} its balance is ${rupees(b.stated)} where the entries make it ${rupees(b.made)}`
    : `opening ${rupees(t.opening!)} + credits ${rupees(t.credits)} - debits ${rupees(t.debits)} = ` +
      `${rupees(t.opening! + t.credits - t.debits)}, but its closing balance is ${rupees(t.closing!)}`;
  return {
    kind: 'balance',
    side: 'bank',
    difference: off,
    entry: {
      file: t.file,
      line: b?.line ?? t.line,
      statement: t.statement,
      valueDate: t.last ?? '',
      amount: Math.abs(off),
      credit: off > 0,
      reference: '',
      narration: `statement ${t.statement}`,
    },
    reason: `statement ${t.statement} does not add up: ${sums} (${off > 0 ? 'more' : 'less'} by ${rupees(Math.abs(off))})`,
  };
}

/** The second pass: every credit of every statement offered to the matcher, then the settlements left over. */
export async function matchStatements(
  files: string[],
  read: ReadOptions,
  period: SettlementLike[],
  neighbours: SettlementLike[],
  opts: Omit<MatchOptions, 'serviceLike'>,
  last: string | undefined,
): Promise<Matcher> {
  const matcher = new Matcher(period, neighbours, { ...opts, serviceLike });
  for (const file of files)
    for await (const batch of readStatement(file, read))
      for (const event of batch) if (event.type === 'entry' && event.entry.credit) matcher.credit(event.entry);
  matcher.finish(last);
  return matcher;
}
