import type { Finding, FindingKind, Matched, Matcher } from '../../bank/match';
import type { Scanned } from '../../bank/tie';
import { formatMoney, formatMoneyShort } from '../../output/money';
import { plural } from '../../output/plural';
import type { ColumnFormat, Table } from '../../output/workbook';

export interface MatchReport {
  period: string;
  window: number;
  allCredits: boolean;
  scanned: Scanned;
  matcher: Matcher;
  tz: string;
}

const inr = (paise: number) => formatMoneyShort(paise, 'INR');
const exact = (paise: number) => formatMoney(paise, 'INR');
const signed = (paise: number) => `${paise > 0 ? '+' : paise < 0 ? '-' : ''}${exact(Math.abs(paise))}`;
const signedText = (paise: number) => (paise < 0 ? `-${inr(-paise)}` : inr(paise));
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** What each kind of finding is called, on stderr and in the Unmatched sheet. */
export const FINDING_NAMES: Record<FindingKind, string> = {
  balance: 'statement does not add up',
  missing: 'not in the bank',
  unexplained: 'unexplained credit',
  amount: 'amount differs',
  date: 'value date outside the window',
  truncated: 'cut UTR',
  duplicate: 'credited twice',
};

export const findingsOf = (r: MatchReport): Finding[] => [...r.scanned.unbalanced, ...r.matcher.findings];

/** One line naming a finding: what, which settlement, which bank entry (file:line, date, amount, reference). */
export function findingLine(f: Finding): string {
  const s = f.settlement ? `${f.settlement.id} (UTR ${f.settlement.utr}, ${inr(f.settlement.amount)})` : '';
  const e = f.entry;
  const bank =
    e && f.kind !== 'balance'
      ? `bank ${e.file}:${e.line} ${e.valueDate} ${inr(e.amount)} "${`${e.reference} ${e.narration}`.trim().slice(0, 100)}"`
      : e
        ? `${e.file}:${e.line}`
        : '';
  const diff = f.kind === 'amount' && f.difference !== undefined ? ` by ${signed(f.difference)}` : '';
  return `${FINDING_NAMES[f.kind]}${diff}: ${[s, bank].filter(Boolean).join(' / ')}: ${f.reason}`;
}

/** The tie-out on stderr: the statements, the settlements, what matched, then every finding. */
export function matchLines(r: MatchReport): string[] {
  const { scanned: b, matcher: m } = r;
  const owed = m.period;
  const found = [...m.matched.values()].filter((x) => !x.neighbour);
  const by = (k: string) => found.filter((x) => x.by === k).length;
  const adds = b.unbalanced.length ? `${plural(b.unbalanced.length, 'statement')} DO NOT ADD UP` : 'each adds up';
  const findings = findingsOf(r).length + m.dropped.count;
  return [
    `bank: ${plural(b.files, 'file')}, ${plural(b.statements, 'statement')} ${b.first ?? '-'} to ${b.last ?? '-'}, ` +
      `${plural(b.entries, 'entry', 'entries')}: credits ${inr(b.credits)}, debits ${inr(b.debits)}; ${adds}`,
    `settlements ${r.period}: ${owed.length}, ${inr(sum(owed.map((s) => s.amount)))}; in the bank: ${found.length} ` +
      `(${by('utr')} by UTR, ${by('reference')} by reference, ${by('truncated')} by cut UTR), ` +
      `${inr(sum(found.map((x) => x.entry.amount)))}, value dates within ${r.window} days`,
    `service credits unmatched: ${m.findings.filter((f) => f.kind === 'unexplained').length + m.dropped.count}` +
      `${r.allCredits ? ' (every credit counted: --all-credits)' : ''}; neighbouring periods' settlements found: ` +
      `${[...m.matched.values()].filter((x) => x.neighbour).length}`,
    findings
      ? `DOES NOT TIE OUT: ${plural(findings, 'finding')}`
      : 'ties out: every settlement is in the bank for its amount, every service credit is explained',
  ];
}

/** A sheet's columns, each a name and its cell format, and how a row of them is read from one record. */
type Columns<T> = Array<[name: string, format: ColumnFormat, cell: (x: T) => string | number | null]>;

const sheet = <T>(name: string, columns: Columns<T>, records: T[]): Table => ({
  name,
  header: columns.map(([n]) => n),
  formats: columns.map(([, f]) => f),
  rows: records.map((x) => columns.map(([, , cell]) => cell(x))),
});

const MATCHED: Columns<Matched> = [
  ['settlement_id', undefined, (x) => x.settlement.id],
  ['utr', undefined, (x) => x.settlement.utr],
  ['settled_at', 'instant', (x) => x.settlement.created_at],
  ['amount', 'integer', (x) => x.settlement.amount],
  ['amount_display', 'rupees', (x) => x.settlement.amount],
  ['bank_date', 'day', (x) => x.entry.valueDate],
  ['bank_amount', 'integer', (x) => x.entry.amount],
  ['bank_amount_display', 'rupees', (x) => x.entry.amount],
  ['bank_reference', undefined, (x) => `${x.entry.reference} ${x.entry.narration}`.trim()],
  ['days_apart', 'integer', (x) => x.daysApart],
  ['matched_by', undefined, (x) => x.by],
  ['bank_file', undefined, (x) => x.entry.file],
  ['bank_line', 'integer', (x) => x.entry.line],
  ['period', undefined, (x) => (x.neighbour ? 'neighbouring' : 'this')],
];

/** A finding's bank entry, unless it is a whole statement's (a balance finding names only its file and line). */
const entryOf = (f: Finding) => (f.kind === 'balance' ? undefined : f.entry);

const UNMATCHED: Columns<Finding> = [
  ['side', undefined, (f) => f.side],
  ['finding', undefined, (f) => FINDING_NAMES[f.kind]],
  ['settlement_id', undefined, (f) => f.settlement?.id ?? null],
  ['utr', undefined, (f) => f.settlement?.utr ?? null],
  ['settled_at', 'instant', (f) => f.settlement?.created_at ?? null],
  ['amount', 'integer', (f) => f.settlement?.amount ?? null],
  ['amount_display', 'rupees', (f) => f.settlement?.amount ?? null],
  ['bank_date', 'day', (f) => entryOf(f)?.valueDate ?? null],
  ['bank_amount', 'integer', (f) => entryOf(f)?.amount ?? null],
  ['bank_amount_display', 'rupees', (f) => entryOf(f)?.amount ?? null],
  ['bank_reference', undefined, (f) => (entryOf(f) ? `${f.entry!.reference} ${f.entry!.narration}`.trim() : null)],
  ['difference', 'integer', (f) => f.difference ?? null],
  ['difference_display', 'rupees', (f) => f.difference ?? null],
  ['reason', undefined, (f) => f.reason],
  ['bank_file', undefined, (f) => f.entry?.file ?? null],
  ['bank_line', 'integer', (f) => f.entry?.line ?? null],
];

/** The Matched, Unmatched and Summary sheets. */
export function matchTables(r: MatchReport): Table[] {
  const { scanned: b, matcher: m } = r;
  const found = [...m.matched.values()];
  const owedFound = found.filter((x) => !x.neighbour);
  const findings = findingsOf(r);
  const missing = findings.filter((f) => f.side === 'settlement');
  const unexplained = findings.filter((f) => f.kind === 'unexplained');
  const total = (xs: Array<{ amount: number }>) => sum(xs.map((x) => x.amount));
  return [
    sheet('Matched', MATCHED, found),
    sheet('Unmatched', UNMATCHED, findings),
    {
      name: 'Summary',
      header: ['side', 'what', 'count', 'amount', 'amount_display'],
      formats: [undefined, undefined, 'integer', 'integer', 'rupees'],
      rows: [
        ['settlements', `settlements of ${r.period}`, m.period.length, total(m.period), total(m.period)],
        [
          'settlements',
          'in the bank',
          owedFound.length,
          total(owedFound.map((x) => x.settlement)),
          total(owedFound.map((x) => x.settlement)),
        ],
        [
          'settlements',
          'not in the bank',
          missing.length,
          total(missing.map((f) => f.settlement!)),
          total(missing.map((f) => f.settlement!)),
        ],
        ['bank', 'statements', b.statements, null, null],
        ['bank', 'statements that do not add up', b.unbalanced.length, null, null],
        ['bank', 'credits', null, b.credits, b.credits],
        ['bank', 'debits', null, b.debits, b.debits],
        [
          'bank',
          'credits matched to a settlement',
          found.length,
          total(found.map((x) => x.entry)),
          total(found.map((x) => x.entry)),
        ],
        [
          'bank',
          'service credits unexplained',
          unexplained.length + m.dropped.count,
          total(unexplained.map((f) => f.entry!)) + m.dropped.amount,
          total(unexplained.map((f) => f.entry!)) + m.dropped.amount,
        ],
        [
          'both',
          'amounts that differ',
          findings.filter((f) => f.kind === 'amount').length,
          sum(findings.map((f) => (f.kind === 'amount' ? f.difference! : 0))),
          sum(findings.map((f) => (f.kind === 'amount' ? f.difference! : 0))),
        ],
        ['both', 'findings', findings.length + m.dropped.count, null, null],
        ['both', 'ties out', findings.length + m.dropped.count ? 'no' : 'yes', null, null],
      ] as Table['rows'],
    },
  ];
}

/** The CSV of a match: one row per settlement matched and per finding, under one header. */
export function matchCsvTable(tables: Table[]): Table {
  const [matched, unmatched] = tables as [Table, Table];
  const names = unmatched.header;
  const at = names.indexOf('bank_reference') + 1;
  const header = ['status', ...names.slice(0, at), 'days_apart', 'matched_by', ...names.slice(at)];
  // Each sheet's row placed under the CSV's header by column name; what a sheet lacks is empty.
  const placed = (status: string, t: Table, extra: Record<string, string>) =>
    t.rows.map((row) => {
      const cells: Record<string, Table['rows'][number][number]> = { status, ...extra };
      t.header.forEach((h, i) => (cells[h] = row[i]!));
      return header.map((h) => cells[h] ?? null);
    });
  const rows = [...placed('matched', matched, { side: 'both' }), ...placed('finding', unmatched, {})];
  // CSV money as every export writes it: paise, and beside them the rupees as text.
  const display = header.map((h) => h.endsWith('_display'));
  return {
    name: 'match',
    header,
    formats: [],
    rows: rows.map((row) => row.map((v, i) => (display[i] && typeof v === 'number' ? signedText(v) : v))),
  };
}
