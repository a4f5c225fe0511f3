import { UsageError } from '../contract/errors';

/*
 * Which column of a netbanking CSV is which. The exports of Indian banks (HDFC, ICICI, SBI, Axis and
 * those that copy them) hold the same seven columns in their own order and words; the header row is
 * found by those words, below whatever account details the bank prints above it. Any other layout is
 * named with --columns.
 */

export const ROLES = ['date', 'narration', 'ref', 'value', 'withdrawal', 'deposit', 'balance'] as const;
export type Role = (typeof ROLES)[number];
/** A role's column: a 0-based index once the header is known, or a header name or 1-based number as given. */
export type Layout = Partial<Record<Role, number>>;

const norm = (cell: string) => cell.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The words banks head each column with (lowercase, letters and digits only); `*` ends a prefix. */
const WORDS: Record<Role, string[]> = {
  date: ['date', 'txndate', 'trandate', 'transactiondate', 'postingdate', 'postdate', 'trndate'],
  value: ['valuedt', 'valuedate'],
  narration: [
    'narration',
    'description',
    'particulars',
    'transactionremarks',
    'remarks',
    'details',
    'transactiondetails',
  ],
  ref: [
    'chqrefno',
    'refnochequeno',
    'chequenumber',
    'chqno',
    'chequeno',
    'refno',
    'referenceno',
    'chequerefno',
    'utr',
    'utrno',
    'chqnorefno',
    'referencenumber',
  ],
  withdrawal: ['withdrawal*', 'debit*', 'dr', 'withdrawals'],
  deposit: ['deposit*', 'credit*', 'cr', 'deposits'],
  balance: ['closingbalance*', 'balance*', 'bal', 'runningbalance*'],
};

const fits = (cell: string, words: string[]) =>
  words.some((w) => (w.endsWith('*') ? cell.startsWith(w.slice(0, -1)) : cell === w));

/** The layout a header row names, when it has at least a date, a narration, withdrawals and deposits. */
export function knownLayout(record: string[]): Layout | undefined {
  const cells = record.map(norm);
  const layout: Layout = {};
  for (const role of ROLES) {
    const i = cells.findIndex((c, j) => fits(c, WORDS[role]) && !Object.values(layout).includes(j));
    if (i >= 0) layout[role] = i;
  }
  return ['date', 'narration', 'withdrawal', 'deposit'].every((r) => layout[r as Role] !== undefined)
    ? layout
    : undefined;
}

/** `--columns date=Txn Date,narration=3,...`: each role to a header name or a 1-based column number. */
export interface ColumnsFlag {
  byName: Partial<Record<Role, string>>;
  byNumber: Layout;
}

export function columnsFlag(raw: string): ColumnsFlag {
  const out: ColumnsFlag = { byName: {}, byNumber: {} };
  for (const part of raw.split(',')) {
    const m = /^\s*([a-z]+)\s*=\s*(.+?)\s*$/.exec(part);
    if (!m || !(ROLES as readonly string[]).includes(m[1]!))
      throw new UsageError(
        `--columns takes ROLE=COLUMN pairs (roles: ${ROLES.join(', ')}; a column is its header or its number): got "${part.trim()}"`,
      );
    const role = m[1] as Role;
    if (/^\d+$/.test(m[2]!) && Number(m[2]) >= 1) out.byNumber[role] = Number(m[2]) - 1;
    else out.byName[role] = m[2]!;
  }
  const named = { ...out.byNumber, ...out.byName };
  const lacking = ['date', 'narration'].filter((r) => !(r in named));
  if (!('withdrawal' in named && 'deposit' in named)) lacking.push('withdrawal and deposit');
  if (lacking.length) throw new UsageError(`--columns must name ${lacking.join(', ')}`);
  return out;
}

/** The layout --columns gives for a header row (undefined: not this row). */
export function flaggedLayout(flag: ColumnsFlag, record: string[]): Layout | undefined {
  const names = Object.entries(flag.byName);
  if (!names.length) return undefined;
  const cells = record.map(norm);
  const layout: Layout = { ...flag.byNumber };
  for (const [role, name] of names) {
    const i = cells.indexOf(norm(name));
    if (i < 0) return undefined;
    layout[role as Role] = i;
  }
  return layout;
}
