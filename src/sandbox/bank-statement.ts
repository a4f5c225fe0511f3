import { SandboxError } from './errors';
import type { SettlementRecord } from './records';
import { IST_OFFSET } from './settlements';
import type { Store } from './store';
import { writeCamt053, writeCsv, writeMt940 } from './bank-statement-formats';

/*
 * The merchant's bank account as its bank reports it for a month: each settlement a credit on its value
 * date (a settlement made on a Saturday or Sunday is value-dated the Monday), the account's other traffic
 * around them, opening and closing balances, the UTR in the narration behind the rail's prefix. Quirks make
 * the statement a finance team dreads, one finding each: a settlement that never arrived (missing), a
 * credit nobody can explain (extra), one paisa short (amount), a UTR cut too short to name one (truncate).
 */

export const STATEMENT_FORMATS = ['mt940', 'camt053', 'csv'] as const;
export const QUIRKS = ['missing', 'extra', 'amount', 'truncate'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];
export type Quirk = (typeof QUIRKS)[number];

export interface StatementLine {
  /** `YYYY-MM-DD`. */
  date: string;
  /** Paise, signed: a credit is positive. */
  amount: number;
  /** The reference field (UTR, cheque or reference number). */
  reference: string;
  narration: string;
  /** The bank's own reference for the entry. */
  bankRef: string;
}

export interface Statement {
  month: string;
  account: string;
  opening: number;
  closing: number;
  lines: StatementLine[];
}

const DAY = 86_400;
/** The account's balance before its first settlement. */
const BASE = 25_000_000;
export const ACCOUNT = '50200012345678';
const PAYEE = 'RAZORPAY SOFTWARE PVT LTD';

const istDay = (t: number) => new Date((t + IST_OFFSET) * 1000).toISOString().slice(0, 10);

/** The day a bank value-dates a credit arriving on `day`: a weekend moves it to the Monday. */
export function valueDate(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  const shift = { 6: 2, 0: 1 }[d.getUTCDay()] ?? 0;
  return new Date(d.getTime() + shift * DAY * 1000).toISOString().slice(0, 10);
}

/** Every settlement made in [from, to], oldest first, read a page at a time. */
function settlementsBetween(store: Store, from: number, to: number): SettlementRecord[] {
  const out: SettlementRecord[] = [];
  for (let skip = 0; ; skip += 500) {
    const page = store.list('settlement', { from, to, count: 500, skip });
    out.push(...page);
    if (page.length < 500) break;
  }
  return out.sort((a, b) => a.created_at - b.created_at);
}

/** The rail each settlement came by, as banks write it: NEFT, RTGS and IMPS in turn. */
const narration = (utr: string, i: number) =>
  [`NEFT-${utr}-${PAYEE}`, `RTGS/${utr}/${PAYEE}`, `IMPS ${utr} ${PAYEE} SETTLEMENT`][i % 3]!;

/** The account's own traffic in a month (rent, a customer paying directly, a bill, salaries): it nets to zero. */
function otherTraffic(month: string): StatementLine[] {
  const [y, m] = month.split('-');
  const at = (d: number) => `${month}-${String(d).padStart(2, '0')}`;
  const n = Number(y) * 12 + Number(m);
  const customer = 12_345_678 + (n % 97) * 1_001;
  const rent = 8_500_000;
  const power = 432_100 + (n % 13) * 100;
  return [
    {
      date: at(1),
      amount: -rent,
      reference: `ACH${y}${m}01`,
      narration: 'ACH D- RENT PRESTIGE PROPERTIES',
      bankRef: '',
    },
    {
      date: at(5),
      amount: customer,
      reference: `AXISN${y}${m}0512345`,
      narration: `NEFT-AXISN${y}${m}0512345-ACME TRADERS-INV 1042`,
      bankRef: '',
    },
    {
      date: at(7),
      amount: -power,
      reference: `UPI${y}${m}07`,
      narration: 'UPI/DR/ELECTRICITY BOARD/BILL',
      bankRef: '',
    },
    {
      date: at(10),
      amount: -(customer - rent - power),
      reference: '',
      narration: `SALARY ${month} BULK UPLOAD`,
      bankRef: '',
    },
  ];
}

export interface StatementRequest {
  month: string;
  quirks: Quirk[];
}

export function bankStatement(store: Store, req: StatementRequest): Statement {
  const m = /^(\d{4})-(\d{2})$/.exec(req.month);
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) throw new SandboxError('month must be YYYY-MM', 400, 'month');
  const start = `${req.month}-01`;
  const next = new Date(Date.UTC(Number(m[1]), Number(m[2]), 1)).toISOString().slice(0, 10);
  const startT = Date.parse(start) / 1000 - IST_OFFSET;
  const credits = settlementsBetween(store, 0, Date.parse(next) / 1000 - IST_OFFSET + 3 * DAY).map((s) => ({
    s,
    date: valueDate(istDay(s.created_at)),
  }));
  let opening = BASE;
  for (const c of credits) if (c.date < start) opening += c.s.amount;
  const ours = credits.filter((c) => c.date >= start && c.date < next && c.s.created_at >= startT - 3 * DAY);
  const lines: StatementLine[] = ours.map((c, i) => ({
    date: c.date,
    amount: c.s.amount,
    reference: c.s.utr.toUpperCase(),
    narration: narration(c.s.utr.toUpperCase(), i),
    bankRef: '',
  }));
  applyQuirks(lines, req.quirks, req.month);
  lines.push(...otherTraffic(req.month));
  lines.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  lines.forEach((l, i) => (l.bankRef ||= `HDFCR${l.date.replace(/-/g, '').slice(2)}${String(i + 1).padStart(5, '0')}`));
  const closing = opening + lines.reduce((sum, l) => sum + l.amount, 0);
  return { month: req.month, account: ACCOUNT, opening, closing, lines };
}

function applyQuirks(lines: StatementLine[], quirks: Quirk[], month: string) {
  const settlement = (k: number) => {
    if (lines.length < 4)
      throw new SandboxError('the month has fewer than four settlements to make quirks of', 400, 'quirks');
    return lines[k]!;
  };
  if (quirks.includes('amount')) settlement(1).amount -= 1;
  if (quirks.includes('truncate')) {
    const l = settlement(2);
    const cut = l.reference.slice(0, 6);
    l.narration = l.narration.replace(l.reference, cut);
    l.reference = cut;
  }
  if (quirks.includes('extra'))
    lines.push({
      date: `${month}-15`,
      amount: 1_234_567,
      reference: `NOSUCHUTR${month.replace('-', '')}`,
      narration: `NEFT-NOSUCHUTR${month.replace('-', '')}-${PAYEE}`,
      bankRef: '',
    });
  if (quirks.includes('missing')) lines.splice(3, 1);
}

export function statementText(s: Statement, format: StatementFormat): string {
  return format === 'mt940' ? writeMt940(s) : format === 'camt053' ? writeCamt053(s) : writeCsv(s);
}
