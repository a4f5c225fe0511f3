import type { Finding, FindingKind, Matched, Matcher } from '../../bank/match';
import type { Scanned } from '../../bank/tie';
import { formatMoney, formatMoneyShort } from '../../output/money';
import { plural } from '../../output/plural';
import type { Table } from '../../output/workbook';

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

const MATCHED_HEADER = [
  'settlement_id',
  'utr',
  'settled_at',
  'amount',
  'amount_display',
  'bank_date',
  'bank_amount',
  'bank_amount_display',
  'bank_reference',
  'days_apart',
  'matched_by',
  'bank_file',
  'bank_line',
  'period',
];

const matchedRow = (x: Matched) => [
  x.settlement.id,
  x.settlement.utr,
  x.settlement.created_at,
  x.settlement.amount,
  x.settlement.amount,
  x.entry.valueDate,
  x.entry.amount,
  x.entry.amount,
  `${x.entry.reference} ${x.entry.narration}`.trim(),
  x.daysApart,
  x.by,
  x.entry.file,
  x.entry.line,
  x.neighbour ? 'neighbouring' : 'this',
];

const UNMATCHED_HEADER = [
  'side',
  'finding',
  'settlement_id',
  'utr',
  'settled_at',
  'amount',
  'amount_display',
  'bank_date',
  'bank_amount',
  'bank_amount_display',
  'bank_reference',
  'difference',
  'difference_display',
  'reason',
  'bank_file',
  'bank_line',
];

const unmatchedRow = (f: Finding) => {
  const s = f.settlement;
  const e = f.kind === 'balance' ? undefined : f.entry;
  return [
    f.side,
    FINDING_NAMES[f.kind],
    s?.id ?? null,
    s?.utr ?? null,
    s?.created_at ?? null,
    s?.amount ?? null,
    s?.amount ?? null,
    e?.valueDate ?? null,
    e?.amount ?? null,
    e?.amount ?? null,
    e ? `${e.reference} ${e.narration}`.trim() : null,
    f.difference ?? null,
    f.difference ?? null,
    f.reason,
    f.entry?.file ?? null,
    f.entry?.line ?? null,
  ];
};

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
    {
      name: 'Matched',
      header: MATCHED_HEADER,
      formats: [
        undefined,
        undefined,
        'instant',
        'integer',
        'rupees',
        'day',
        'integer',
        'rupees',
        undefined,
        'integer',
        undefined,
        undefined,
        'integer',
        undefined,
      ],
      rows: found.map(matchedRow),
    },
    {
      name: 'Unmatched',
      header: UNMATCHED_HEADER,
      formats: [
        undefined,
        undefined,
        undefined,
        undefined,
        'instant',
        'integer',
        'rupees',
        'day',
        'integer',
        'rupees',
        undefined,
        'integer',
        'rupees',
        undefined,
        undefined,
        'integer',
      ],
      rows: findings.map(unmatchedRow),
    },
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
  const header = [
    'status',
    ...UNMATCHED_HEADER.slice(0, 11),
    'days_apart',
    'matched_by',
    ...UNMATCHED_HEADER.slice(11),
  ];
  const fromMatched = matched.rows.map((r) => [
    'matched',
    'both',
    null,
    r[0]!,
    r[1]!,
    r[2]!,
    r[3]!,
    r[4]!,
    r[5]!,
    r[6]!,
    r[7]!,
    r[8]!,
    r[9]!,
    r[10]!,
    null,
    null,
    null,
    r[11]!,
    r[12]!,
  ]);
  const fromFindings = unmatched.rows.map((r) => ['finding', ...r.slice(0, 11), null, null, ...r.slice(11)]);
  // CSV money as every export writes it: paise, and beside them the rupees as text.
  const display = header.map((h) => h.endsWith('_display'));
  const rows = [...fromMatched, ...fromFindings].map((row) =>
    row.map((v, i) => (display[i] && typeof v === 'number' ? signedText(v) : v)),
  );
  return { name: 'match', header, formats: [], rows };
}
