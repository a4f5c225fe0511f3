import mt940js from 'mt940js';
import { numberedLines } from './lines';
import { FIELD_MAX, StatementError, tally } from './types';
import type { BankEvent, StatementTotals } from './types';

/*
 * SWIFT MT940 (and MT942) through mt940js, one statement message at a time: the file is streamed line by
 * line and cut at each message (a `{1:` block or a new `:20:`), so memory holds one statement, never the
 * file. mt940js checks the mandatory tags and that opening + entries = closing; a statement that does
 * not add up is read again with its closing balance as its entries make it, so the difference becomes a
 * finding and its entries are still matched.
 */

interface Mt940Transaction {
  date: Date;
  entryDate?: Date | '';
  amount: number;
  reference?: string;
  bankReference?: string;
  extraDetails?: string;
  details?: string;
}
interface Mt940Statement {
  transactionReference: string;
  number: { statement: string; sequence?: string };
  openingBalance: number;
  closingBalance: number;
  currency: string;
  transactions: Mt940Transaction[];
}
interface Mt940Parser {
  parse(text: string): Mt940Statement[];
}

let parser: Mt940Parser | undefined;
const mt940 = () => (parser ??= new mt940js.Parser() as Mt940Parser);

/** One statement message is at most this much text (a bank sends a day, or a month, per message). */
export const MESSAGE_MAX = 8 * 1024 * 1024;

interface Message {
  start: number;
  lines: string[];
  /** Line number of each tag's first line, by its text, for errors the parser words without one. */
  tagLines: Array<{ n: number; text: string }>;
  size: number;
}

const day = (d: Date | '' | undefined) => (d instanceof Date ? d.toISOString().slice(0, 10) : undefined);
const toPaise = (rupees: number) => Math.round(rupees * 100);
const BALANCE = /^:(60|62)([FM]):([DC])(\d{6})([A-Z]{3})([0-9,]{1,16})/;

/** What mt940js found wrong, worded for a person: which tag, where, what was expected. */
function described(file: string, msg: Message, err: Error): StatementError {
  const text = err.message;
  const missing = /Mandatory tag (\w+) is missing/.exec(text);
  if (missing) {
    const names: Record<string, string> = {
      '20': 'its reference (:20:)',
      '25': 'its account (:25:)',
      '28': 'its statement number (:28C:)',
      '60': 'its opening balance (:60F:)',
      '62': 'its closing balance (:62F:)',
    };
    const end = msg.tagLines.at(-1)?.n ?? msg.start;
    return new StatementError(
      file,
      `line ${end}`,
      `MT940 statement starting at line ${msg.start} ends without ${names[missing[1]!] ?? `tag :${missing[1]}:`}` +
        ' (truncated file?)',
    );
  }
  const bad = /Cannot parse tag (\w+): ([^\n]*)/.exec(text);
  if (bad) {
    const at = msg.tagLines.find((t) => t.text.startsWith(`:${bad[1]}`) && t.text.includes(bad[2]!.slice(0, 40)));
    return new StatementError(
      file,
      `line ${at?.n ?? msg.start}`,
      `MT940 tag :${bad[1]}: does not read as SWIFT defines it: "${bad[2]!.slice(0, 60)}"`,
    );
  }
  return new StatementError(file, `line ${msg.start}`, `MT940 statement not readable: ${text.split('\n')[0]}`);
}

/** The message with its closing balance replaced by opening + `sum` (rupees), for a statement that does not add up. */
function rebalanced(msg: Message, sum: number): string | undefined {
  const open = msg.lines.map((l) => BALANCE.exec(l)).find((m) => m?.[1] === '60');
  if (!open) return undefined;
  const opening = (open[3] === 'D' ? -1 : 1) * toPaise(Number(open[6]!.replace(',', '.')));
  const closing = opening + toPaise(sum);
  const amount = (Math.abs(closing) / 100).toFixed(2).replace('.', ',');
  return msg.lines
    .map((l) => {
      const m = BALANCE.exec(l);
      return m?.[1] === '62' ? `:62${m[2]}:${closing < 0 ? 'D' : 'C'}${m[4]}${m[5]}${amount}` : l;
    })
    .join('\n');
}

function* events(file: string, msg: Message): Generator<BankEvent> {
  const text = msg.lines.join('\n');
  let statements: Mt940Statement[];
  let stated: number | undefined;
  try {
    statements = mt940().parse(text);
  } catch (err) {
    const off = /Sum of lines \(([-\d.e]+)\) != turnover/.exec((err as Error).message);
    const fixed = off ? rebalanced(msg, Number(off[1])) : undefined;
    if (!fixed) throw described(file, msg, err as Error);
    const close = msg.lines.map((l) => BALANCE.exec(l)).find((m) => m?.[1] === '62');
    stated = close ? (close[3] === 'D' ? -1 : 1) * toPaise(Number(close[6]!.replace(',', '.'))) : undefined;
    statements = mt940().parse(fixed);
  }
  const lines61 = msg.tagLines.filter((t) => t.text.startsWith(':61:')).map((t) => t.n);
  let i = 0;
  for (const s of statements) {
    const name = `${s.transactionReference.trim()} ${s.number.statement}${s.number.sequence ? `/${s.number.sequence}` : ''}`;
    const totals: StatementTotals = {
      file,
      line: msg.start,
      statement: name.trim(),
      opening: toPaise(s.openingBalance),
      closing: stated ?? toPaise(s.closingBalance),
      credits: 0,
      debits: 0,
      entries: 0,
    };
    for (const t of s.transactions) {
      const entry = {
        file,
        line: lines61[i++] ?? msg.start,
        statement: totals.statement,
        valueDate: day(t.date)!,
        bookingDate: day(t.entryDate),
        amount: Math.abs(toPaise(t.amount)),
        credit: t.amount > 0,
        reference: [t.reference, t.bankReference].filter((r) => r && r !== 'NONREF').join(' '),
        narration: [t.details, t.extraDetails].filter(Boolean).join(' ').slice(0, FIELD_MAX),
      };
      tally(totals, entry);
      yield { type: 'entry', entry };
    }
    yield { type: 'statement', totals };
  }
}

/** Every entry and statement of an MT940 file, a message at a time. */
export async function* readMt940(file: string): AsyncGenerator<BankEvent[]> {
  let msg: Message | undefined;
  let seen20 = false;
  let any = false;
  for await (const batch of numberedLines(file))
    for (const { n, text } of batch) {
      const trimmed = text.trimEnd();
      if (!trimmed || trimmed === '-') continue;
      const starts = trimmed.startsWith('{1:') || (trimmed.startsWith(':20:') && seen20);
      if (starts && msg && msg.tagLines.some((t) => t.text.startsWith(':20:'))) {
        yield [...events(file, msg)];
        any = true;
        msg = undefined;
        seen20 = false;
      }
      msg ??= { start: n, lines: [], tagLines: [], size: 0 };
      if (trimmed.startsWith(':20:')) seen20 = true;
      msg.lines.push(trimmed);
      msg.size += trimmed.length + 1;
      if (/^:\w{2,3}:/.test(trimmed)) msg.tagLines.push({ n, text: trimmed });
      if (msg.size > MESSAGE_MAX)
        throw new StatementError(
          file,
          `line ${n}`,
          `MT940 statement starting at line ${msg.start} is over ${MESSAGE_MAX >> 20} MiB: ` +
            'payctl reads one statement message at a time (ask the bank for daily or monthly statements)',
        );
    }
  if (msg && msg.lines.some((l) => /^[:{]/.test(l))) {
    yield [...events(file, msg)];
    any = true;
  }
  if (!any)
    throw new StatementError(file, 'line 1', 'no MT940 statement found (expected :20:, :25:, :60F:, :61:, :62F:)');
}
